//! The shared table of `download-into-shell.json`: the Rust SDK's answer for
//! every command, the one the Python and JavaScript helpers are held to too.

use hookhost_guest::shell;

#[test]
fn the_shared_table() {
    let table: serde_json::Value =
        serde_json::from_str(include_str!("download-into-shell.json")).expect("the table is JSON");
    let cases = table["cases"].as_array().expect("cases");
    assert!(cases.len() > 40);
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let command = case["command"].as_str()?;
            let want = case["blocked"].as_bool()?;
            let got = shell::parse(command).pipes_download_into_shell();
            (got != want).then(|| format!("{command:?}: expected {want}, got {got}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
