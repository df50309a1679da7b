//! Loading settings: the documented file, layering, unknown keys, validation.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use checkerbot_config::{LoadError, PlayLevel, RobotSide, Settings, load_with_env};
use emotions::Attitude;

const DOCUMENTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/checkerbot.toml");

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("checkerbot-config-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

/// Every dotted key of a TOML value.
fn keys(value: &toml::Value, prefix: &str, out: &mut Vec<String>) {
    if let toml::Value::Table(table) = value {
        for (k, v) in table {
            keys(v, &format!("{prefix}{k}."), out);
        }
    } else {
        out.push(prefix.trim_end_matches('.').to_owned());
    }
}

#[test]
fn the_documented_file_lists_every_key_with_its_default() {
    let loaded = load_with_env(Some(Path::new(DOCUMENTED)), HashMap::new()).unwrap();
    assert_eq!(loaded, Settings::default());

    let documented: toml::Value =
        toml::from_str(&std::fs::read_to_string(DOCUMENTED).unwrap()).unwrap();
    let defaults = toml::Value::try_from(Settings::default()).unwrap();
    let (mut have, mut want) = (Vec::new(), Vec::new());
    keys(&documented, "", &mut have);
    keys(&defaults, "", &mut want);
    // The packs folder defaults to the source tree, which differs per machine: it is shown
    // commented out.
    want.retain(|k| k != "sounds.packs_dir");
    have.sort();
    want.sort();
    assert_eq!(have, want);
}

#[test]
fn a_file_names_only_what_it_changes_and_the_environment_wins() {
    let path = write(
        "partial.toml",
        "[play]\nlevel = 2\n[emotions]\nattitude = \"rival\"\n",
    );
    let settings = load_with_env(
        Some(&path),
        env(&[
            ("CHECKERBOT_PLAY__LEVEL", "5"),
            ("CHECKERBOT_GAME__ROBOT", "white"),
        ]),
    )
    .unwrap();
    assert_eq!(settings.play.level, PlayLevel::Fixed(5));
    assert_eq!(settings.emotions.attitude, Attitude::Rival);
    assert_eq!(settings.game.robot, RobotSide::White);
    assert_eq!(settings.sensor, Settings::default().sensor);
}

#[test]
fn the_operator_pages_host_names_are_a_comma_separated_list_in_the_environment() {
    let settings = load_with_env(
        None,
        env(&[
            ("CHECKERBOT_OPERATOR__HOSTNAMES", "robot.local,10.0.0.5"),
            ("CHECKERBOT_OPERATOR__TOKEN", "a,long,token,with,commas"),
        ]),
    )
    .unwrap();
    assert_eq!(settings.operator.hostnames, ["robot.local", "10.0.0.5"]);
    // Other text settings stay text, commas and all.
    assert_eq!(
        settings.operator.token.as_deref(),
        Some("a,long,token,with,commas")
    );
    let one = load_with_env(
        None,
        env(&[("CHECKERBOT_OPERATOR__HOSTNAMES", "robot.local")]),
    );
    assert_eq!(one.unwrap().operator.hostnames, ["robot.local"]);
}

#[test]
fn an_unknown_key_is_an_error_that_names_it() {
    let path = write("typo.toml", "[emotions]\natitude = \"rival\"\n");
    let err = load_with_env(Some(&path), HashMap::new()).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("atitude"), "{text}");
    assert!(text.contains("typo.toml"), "{text}");
}

#[test]
fn wrong_types_and_ranges_name_the_key_and_what_is_allowed() {
    let path = write("loud.toml", "[sounds]\nvolume = \"loud\"\n");
    let text = load_with_env(Some(&path), HashMap::new())
        .unwrap_err()
        .to_string();
    assert!(text.contains("volume"), "{text}");

    let path = write(
        "level.toml",
        "[play]\nlevel = 9\n[sensor]\ndebounce_reads = 0\n",
    );
    match load_with_env(Some(&path), HashMap::new()) {
        Err(LoadError::Invalid { errors: problems }) => {
            let keys: Vec<_> = problems.iter().map(|p| p.key.as_deref().unwrap()).collect();
            assert_eq!(keys, ["play.level", "sensor.debounce_reads"]);
            assert!(problems[0].message.contains("1 (gentle) to 5"));
        }
        other => panic!("{other:?}"),
    }

    let path = write("variant.toml", "[game]\nvariant = \"chess\"\n");
    let text = load_with_env(Some(&path), HashMap::new())
        .unwrap_err()
        .to_string();
    assert!(text.contains("unknown value \"chess\""), "{text}");
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let err = load_with_env(
        Some(Path::new("/nonexistent/checkerbot.toml")),
        HashMap::new(),
    )
    .unwrap_err();
    assert!(
        err.to_string().contains("/nonexistent/checkerbot.toml"),
        "{err}"
    );
}

#[test]
fn model_and_runtime_paths_load_and_are_checked() {
    let dir = std::env::temp_dir().join(format!("checkerbot-config-{}", std::process::id()));
    let path = write(
        "paths.toml",
        "[paths]\nmodels_dir = \"/srv/models\"\nonnxruntime = \"/opt/ort/libonnxruntime.so.1.32.0\"\n",
    );
    let settings = load_with_env(Some(&path), HashMap::new()).unwrap();
    assert_eq!(settings.paths.models_dir(), Path::new("/srv/models"));
    assert_eq!(
        settings.paths.onnxruntime.as_deref(),
        Some(Path::new("/opt/ort/libonnxruntime.so.1.32.0"))
    );

    // A folder where the library file belongs, a file where the models' folder belongs.
    let path = write(
        "swapped.toml",
        &format!(
            "[paths]\nmodels_dir = \"{}\"\nonnxruntime = \"{}\"\n",
            path.display(),
            dir.display()
        ),
    );
    match load_with_env(Some(&path), HashMap::new()) {
        Err(LoadError::Invalid { errors: problems }) => {
            let keys: Vec<_> = problems.iter().map(|p| p.key.as_deref().unwrap()).collect();
            assert_eq!(keys, ["paths.models_dir", "paths.onnxruntime"]);
            assert!(problems[0].message.contains("is a file"), "{problems:?}");
            assert!(problems[1].message.contains("is a folder"), "{problems:?}");
        }
        other => panic!("{other:?}"),
    }
    let path = write("empty.toml", "[paths]\nonnxruntime = \"\"\n");
    let text = load_with_env(Some(&path), HashMap::new())
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("paths.onnxruntime = \"\": is empty"),
        "{text}"
    );
}

#[test]
fn the_default_models_folder_is_the_source_trees_during_development() {
    // Test binaries live under target/, which has no share/checkerbot/models: the rule falls
    // through to the repository's models/ folder.
    let found = Settings::default().paths.models_dir();
    let expected = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("models");
    assert_eq!(found, expected);
    assert!(found.join("README.md").exists());
}

#[test]
fn settings_text_reads_like_a_file_and_names_what_is_wrong() {
    let text = std::fs::read_to_string(DOCUMENTED).unwrap();
    assert_eq!(
        checkerbot_config::parse(&text).unwrap(),
        Settings::default()
    );
    let settings = checkerbot_config::parse("[play]\nlevel = 2\n").unwrap();
    assert_eq!(settings.play.level, PlayLevel::Fixed(2));
    let typo = checkerbot_config::parse("[emotions]\natitude = \"rival\"\n").unwrap_err();
    assert!(typo.to_string().contains("atitude"), "{typo}");
    let range = checkerbot_config::parse("[play]\nlevel = 9\n").unwrap_err();
    assert!(range.to_string().contains("play.level"), "{range}");
}

#[test]
fn the_operator_page_needs_a_token_off_localhost() {
    let path = write(
        "lan.toml",
        "[operator]\nenabled = true\nbind = \"0.0.0.0:8080\"\n",
    );
    match load_with_env(Some(&path), HashMap::new()) {
        Err(LoadError::Invalid { errors: problems }) => {
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert_eq!(problems[0].key.as_deref(), Some("operator.bind"));
            assert_eq!(problems[0].value.as_deref(), Some("\"0.0.0.0:8080\""));
            assert!(
                problems[0].message.contains("operator.token"),
                "{problems:?}"
            );
        }
        other => panic!("{other:?}"),
    }

    let path = write(
        "lan-token.toml",
        "[operator]\nenabled = true\nbind = \"0.0.0.0:8080\"\ntoken = \"correct-horse\"\n",
    );
    let settings = load_with_env(Some(&path), HashMap::new()).unwrap();
    assert_eq!(settings.operator.token.as_deref(), Some("correct-horse"));

    // Localhost needs none; a short token is refused anyway; a bad address names the key.
    let path = write("local.toml", "[operator]\nenabled = true\n");
    assert!(load_with_env(Some(&path), HashMap::new()).is_ok());
    let path = write("short.toml", "[operator]\ntoken = \"abc\"\n");
    let text = load_with_env(Some(&path), HashMap::new())
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("operator.token") && text.contains("at least 8"),
        "{text}"
    );
    let path = write("addr.toml", "[operator]\nbind = \"robot:80\"\n");
    let text = load_with_env(Some(&path), HashMap::new())
        .unwrap_err()
        .to_string();
    assert!(text.contains("bind"), "{text}");
}

#[test]
fn the_operator_pages_other_names_are_read_and_checked() {
    let path = write(
        "names.toml",
        "[operator]\nhostnames = [\"robot.local\", \"192.168.1.20\", \"robot.example:443\"]\n",
    );
    let settings = load_with_env(Some(&path), HashMap::new()).unwrap();
    assert_eq!(
        settings.operator.hostnames,
        ["robot.local", "192.168.1.20", "robot.example:443"]
    );
    let path = write(
        "bad-names.toml",
        "[operator]\nhostnames = [\"robot.local\", \"*.local\", \"fd00::5\"]\n",
    );
    match load_with_env(Some(&path), HashMap::new()) {
        Err(LoadError::Invalid { errors }) => {
            let said: Vec<String> = errors.iter().map(ToString::to_string).collect();
            assert_eq!(said.len(), 2, "{said:?}");
            assert!(said[0].contains("\"*.local\" holds a wildcard"), "{said:?}");
            assert!(said[1].contains("\"[fd00::5]\""), "{said:?}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn printing_the_settings_never_shows_the_operator_token() {
    let path = write(
        "secret.toml",
        "[operator]\nenabled = true\nbind = \"0.0.0.0:8080\"\ntoken = \"correct-horse-battery\"\n",
    );
    let settings = load_with_env(Some(&path), HashMap::new()).unwrap();
    let printed = format!("{settings:?}");
    assert!(printed.contains("0.0.0.0:8080"), "{printed}");
    assert!(!printed.contains("correct-horse"), "{printed}");
}

#[test]
fn the_endgame_tables_folder_is_optional_and_set_by_the_file_or_the_environment() {
    assert_eq!(Settings::default().play.egdb_dir(), None);
    let path = write("egdb.toml", "[play]\negdb_dir = \"/srv/egdb\"\n");
    let from_file = load_with_env(Some(&path), HashMap::new()).unwrap();
    assert_eq!(from_file.play.egdb_dir(), Some(Path::new("/srv/egdb")));
    let from_env = load_with_env(
        Some(&path),
        env(&[("CHECKERBOT_PLAY__EGDB_DIR", "/var/lib/checkerbot/egdb")]),
    )
    .unwrap();
    assert_eq!(
        from_env.play.egdb_dir(),
        Some(Path::new("/var/lib/checkerbot/egdb"))
    );
    // Empty is none; a folder that is not there is the player's warning, not a stop.
    let empty = load_with_env(None, env(&[("CHECKERBOT_PLAY__EGDB_DIR", "")])).unwrap();
    assert_eq!(empty.play.egdb_dir(), None);
    let missing = write(
        "egdb-missing.toml",
        "[play]\negdb_dir = \"/nonexistent/egdb\"\n",
    );
    assert!(load_with_env(Some(&missing), HashMap::new()).is_ok());
}
