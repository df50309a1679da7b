//! The settings loader's fuzz target.

/// Any text as a settings file: loading returns settings or an error naming the problem, never
/// panics, and settings it accepts write back to TOML that loads as the same settings (nothing
/// accepted is out of range or lost on the way).
pub fn settings(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(settings) = checkerbot_config::parse(text) {
        let written = toml::to_string(&settings)
            .unwrap_or_else(|err| panic!("accepted settings do not write as TOML: {err}"));
        let again = checkerbot_config::parse(&written)
            .unwrap_or_else(|err| panic!("{err}: the written settings do not load:\n{written}"));
        assert_eq!(again, settings, "{written}");
    }
}
