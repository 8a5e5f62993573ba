//! Bounded capture of a hook's stdout or stderr.
//!
//! A hook may legitimately print megabytes (`additionalContext`), and a broken one may
//! print forever. The capture keeps up to a cap and keeps *reading* past it, so the
//! writer never blocks on a full pipe (no deadlock), while memory stays bounded.
//! Bytes are decoded only once the stream is complete, so a multibyte character split
//! across reads survives; invalid UTF-8 becomes U+FFFD.

use tokio::io::{AsyncRead, AsyncReadExt};

/// Default cap on each of stdout and stderr: 16 MiB.
pub const DEFAULT_OUTPUT_CAP: usize = 16 * 1024 * 1024;

/// What was read from one stream.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Captured {
    /// The bytes kept, at most the cap.
    pub bytes: Vec<u8>,
    /// The number of bytes the hook wrote in all.
    pub total: u64,
}

impl Captured {
    /// Whether bytes were dropped because of the cap.
    pub fn truncated(&self) -> bool {
        self.total > self.bytes.len() as u64
    }

    /// The kept bytes as text (lossy).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }

    /// Appends bytes, keeping at most `cap` in memory.
    pub fn push(&mut self, chunk: &[u8], cap: usize) {
        self.total += chunk.len() as u64;
        let room = cap.saturating_sub(self.bytes.len());
        self.bytes
            .extend_from_slice(&chunk[..chunk.len().min(room)]);
    }
}

/// Reads `reader` to EOF into `into`, keeping at most `cap` bytes. Read errors end
/// the capture (what was read is kept).
pub async fn capture<R: AsyncRead + Unpin>(mut reader: R, cap: usize, into: &mut Captured) {
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => into.push(&chunk[..n], cap),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn keeps_up_to_the_cap_but_counts_everything() {
        let data = vec![b'x'; 200_000];
        let mut got = Captured::default();
        capture(&data[..], 1000, &mut got).await;
        assert_eq!(got.bytes.len(), 1000);
        assert_eq!(got.total, 200_000);
        assert!(got.truncated());
    }

    #[test]
    fn split_multibyte_characters_survive_and_invalid_bytes_are_replaced() {
        let mut got = Captured::default();
        let euro = "€".as_bytes();
        got.push(&euro[..1], 100);
        got.push(&euro[1..], 100);
        got.push(&[0xff], 100);
        assert_eq!(got.text(), "€\u{fffd}");
    }
}
