// WallboardCLI — the executable's logic, as a library so that it can be tested.
//
// What lives here: argument parsing from one option table, `--config` files, the commands
// (`run`, `snapshot`, `inspect`, `themes`, `layouts`), the run loop, and the one place where
// errors from every layer become user text and exit codes (`CLIError`).
// What it may import: every module; nothing imports it but the `wallboard` executable.
