// The policy's logic, natively: `node --test` (or `npm test`).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { decide } from './decide.js';

const before = (tool_name, tool_input) => ({ hook_event_name: 'BeforeTool', tool_name, tool_input });

test('blocks protected directories, anywhere in tool_input', () => {
  assert.equal(
    decide(before('write_file', { file_path: '/etc/passwd' })),
    'js-policy: write_file may not touch /etc/ (/etc/passwd)',
  );
  assert.equal(
    decide(before('read_many_files', { paths: ['src/a.rs', { p: '/boot/grub' }] })),
    'js-policy: read_many_files may not touch /boot/ (/boot/grub)',
  );
  assert.equal(decide(before('list_directory', { path: '/usr' })), 'js-policy: list_directory may not touch /usr/ (/usr)');
});

test('blocks sudo as a word, not as a substring', () => {
  assert.equal(
    decide(before('run_shell_command', { command: 'ls &&\tsudo rm x' })),
    'js-policy: run_shell_command may not use sudo',
  );
  assert.equal(decide(before('run_shell_command', { command: 'echo pseudo sudoku' })), null);
});

test('allows the rest', () => {
  assert.equal(decide(before('write_file', { file_path: '/etcetera/x' })), null);
  assert.equal(decide(before('write_file', { file_path: 'etc/passwd' })), null);
  assert.equal(decide(before('write_file', {})), null);
  assert.equal(decide({ ...before('write_file', { file_path: '/etc/x' }), hook_event_name: 'AfterTool' }), null);
});

test('DENY_PREFIXES replaces the default list', () => {
  assert.equal(decide(before('write_file', { file_path: '/etc/x' }), '/srv/'), null);
  assert.equal(
    decide(before('write_file', { file_path: '/srv/www' }), '/srv/'),
    'js-policy: write_file may not touch /srv/ (/srv/www)',
  );
});
