//! Tables written, loaded and verified; every kind of damage refused with a typed error that
//! names the file.

use std::fs;
use std::path::{Path, PathBuf};

use egdb::{Egdb, Fault, Material, Table, TableError, Wdl, build};
use rules::{Position, Variant, fen};

fn built_dir(name: &str) -> (PathBuf, Egdb) {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("egdb-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let mut reports = Vec::new();
    let egdb = build(Variant::Russian, 3, Some(&dir), &mut |r| reports.push(*r)).unwrap();
    assert_eq!(reports.len(), Material::all_up_to(3).len());
    for r in &reports {
        assert_eq!(r.wins + r.draws + r.losses, r.positions, "{}", r.material);
    }
    (dir, egdb)
}

fn load_err(dir: &Path, material: Material) -> TableError {
    let path = dir.join(material.file_name(Variant::Russian));
    Table::load(&path, Variant::Russian, material).unwrap_err()
}

#[test]
fn every_written_table_loads_with_its_checksum_and_answers_as_built() {
    let (dir, built) = built_dir("roundtrip");
    let loaded = Egdb::open(&dir, Variant::Russian, 3).unwrap();
    let mut n = 0;
    for table in built.tables() {
        let path = dir.join(table.material().file_name(Variant::Russian));
        assert_eq!(fs::metadata(&path).unwrap().len(), table.file_len());
        let again = Table::load(&path, Variant::Russian, table.material()).unwrap();
        assert_eq!(again.counts(), table.counts());
        for i in 0..table.len() {
            assert_eq!(again.get(i), table.get(i));
        }
        n += 1;
    }
    assert_eq!(n, Material::all_up_to(3).len());
    // The loaded database answers like the built one: a man about to crown and a lone king.
    for text in ["W:Wc7:Bh2", "B:Wc7:Bh2", "W:WKa1:Bb6,Kh8", "B:WKa1:Bb6,Kh8"] {
        let p: Position = fen::parse(Variant::Russian, text).unwrap();
        assert_eq!(loaded.probe(&p), built.probe(&p), "{text}");
    }
    // A king that takes the last man at once wins; the man's side, to move, loses.
    let p = fen::parse(Variant::Russian, "W:WKe1:Bd2").unwrap();
    assert_eq!(loaded.probe(&p), Some(Wdl::Win));
    let p = fen::parse(Variant::Russian, "B:WKe1,Kh8:Bc3").unwrap();
    assert_eq!(loaded.probe(&p), Some(Wdl::Loss));
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn a_flipped_byte_anywhere_is_refused_naming_the_file() {
    let (dir, _) = built_dir("flip");
    let material = Material::new(1, 0, 0, 2);
    let path = dir.join(material.file_name(Variant::Russian));
    let good = fs::read(&path).unwrap();
    // Bytes of the values, of the count and of the checksum itself.
    for at in [good.len() - 1, 40, 17, 30] {
        let mut bad = good.clone();
        bad[at] ^= 0x10;
        fs::write(&path, &bad).unwrap();
        let err = load_err(&dir, material);
        assert_eq!(err.path, path);
        assert!(
            matches!(
                err.fault,
                Fault::Checksum { .. } | Fault::TooShort { .. } | Fault::TooLong { .. }
            ),
            "byte {at}: {err}"
        );
        assert!(
            err.to_string()
                .contains(&material.file_name(Variant::Russian)),
            "{err}"
        );
    }
    // The loader of the whole directory refuses it too.
    let mut bad = good.clone();
    bad[good.len() / 2] ^= 1;
    fs::write(&path, &bad).unwrap();
    let err = Egdb::open(&dir, Variant::Russian, 3).unwrap_err();
    assert!(matches!(err.fault, Fault::Checksum { .. }), "{err}");
    fs::write(&path, &good).unwrap();
    Egdb::open(&dir, Variant::Russian, 3).unwrap();
    let _ = fs::remove_dir_all(&dir);
}

#[test]
fn short_foreign_and_missing_files_are_typed_errors() {
    let (dir, _) = built_dir("damage");
    let material = Material::new(0, 1, 0, 2);
    let path = dir.join(material.file_name(Variant::Russian));
    let good = fs::read(&path).unwrap();

    fs::write(&path, &good[..good.len() - 3]).unwrap();
    assert!(matches!(
        load_err(&dir, material).fault,
        Fault::TooShort { .. }
    ));
    fs::write(&path, &good[..10]).unwrap();
    assert!(matches!(
        load_err(&dir, material).fault,
        Fault::TooShort { need: 32, .. }
    ));
    fs::write(&path, []).unwrap();
    assert!(matches!(
        load_err(&dir, material).fault,
        Fault::TooShort { len: 0, .. }
    ));
    let mut longer = good.clone();
    longer.push(0);
    fs::write(&path, &longer).unwrap();
    assert!(matches!(
        load_err(&dir, material).fault,
        Fault::TooLong { .. }
    ));
    let mut magic = good.clone();
    magic[0] = b'X';
    fs::write(&path, &magic).unwrap();
    assert!(matches!(load_err(&dir, material).fault, Fault::BadMagic));
    let mut version = good.clone();
    version[8] = 9;
    fs::write(&path, &version).unwrap();
    assert!(matches!(
        load_err(&dir, material).fault,
        Fault::UnsupportedVersion {
            found: 9,
            supported: 1
        }
    ));
    // Another material's file under this one's name: its checksum is good, its header is not.
    fs::copy(
        dir.join(Material::new(0, 2, 0, 1).file_name(Variant::Russian)),
        &path,
    )
    .unwrap();
    assert!(matches!(
        load_err(&dir, material).fault,
        Fault::WrongMaterial { .. }
    ));
    fs::remove_file(&path).unwrap();
    let err = Egdb::open(&dir, Variant::Russian, 3).unwrap_err();
    assert!(matches!(err.fault, Fault::Io(_)), "{err}");
    assert_eq!(err.path, path);
    let _ = fs::remove_dir_all(&dir);
}

/// FNV-1a 64 as the file format states it, to forge a file whose checksum is sound but whose
/// contents are wrong.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

fn with_checksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let sum = fnv1a(&[&bytes[..24], &bytes[32..]]);
    bytes[24..32].copy_from_slice(&sum.to_le_bytes());
    bytes
}

#[test]
fn distance_files_load_beside_their_tables_and_damage_is_refused() {
    let (dir, built) = built_dir("distances");
    let loaded = Egdb::open_with_distances(&dir, Variant::Russian, 3).unwrap();
    for table in built.tables() {
        let path = dir.join(table.material().distance_file_name(Variant::Russian));
        assert_eq!(
            fs::metadata(&path).unwrap().len(),
            table.distance_file_len()
        );
        assert_eq!(table.distance_file_len(), 32 + table.len());
        assert!(!table.saturated());
    }
    for text in ["W:Wc7:Bh2", "B:Wc7:Bh2", "W:WKa1:Bb6,Kh8", "B:WKa1:Bb6,Kh8"] {
        let p: Position = fen::parse(Variant::Russian, text).unwrap();
        assert_eq!(
            loaded.probe_distance(&p),
            built.probe_distance(&p),
            "{text}"
        );
        assert!(loaded.probe_distance(&p).is_some(), "{text}");
    }
    // Tables opened without their distances answer values but no distance.
    let plain = Egdb::open(&dir, Variant::Russian, 3).unwrap();
    let p = fen::parse(Variant::Russian, "W:Wc7:Bh2").unwrap();
    assert!(plain.probe(&p).is_some());
    assert_eq!(plain.probe_distance(&p), None);
    assert_eq!(plain.best_move(&p), None);

    let material = Material::new(0, 1, 0, 2);
    let load = |m: Material| {
        let mut table = Table::load(
            &dir.join(m.file_name(Variant::Russian)),
            Variant::Russian,
            m,
        )
        .unwrap();
        table
            .load_distances(&dir.join(material.distance_file_name(Variant::Russian)))
            .map(|()| table)
    };
    let path = dir.join(material.distance_file_name(Variant::Russian));
    let good = fs::read(&path).unwrap();
    load(material).unwrap();
    // A flipped distance byte: the checksum catches it.
    let mut bad = good.clone();
    bad[40] ^= 2;
    fs::write(&path, &bad).unwrap();
    let err = load(material).unwrap_err();
    assert!(matches!(err.fault, Fault::Checksum { .. }), "{err}");
    assert_eq!(err.path, path);
    // A distance of the wrong parity under a sound checksum: refused against the values.
    let first_win = (0..table_of(&built, material).len())
        .find(|&i| table_of(&built, material).get(i) == Wdl::Win)
        .unwrap();
    let mut forged = good.clone();
    forged[32 + first_win as usize] += 1;
    fs::write(&path, with_checksum(forged)).unwrap();
    let err = load(material).unwrap_err();
    assert!(
        matches!(err.fault, Fault::BadDistance { position, value: Wdl::Win, .. } if position == first_win),
        "{err}"
    );
    // Saturation without the header's flag, and a flag byte that is no flag.
    let mut forged = good.clone();
    forged[32 + first_win as usize] = egdb::SATURATED;
    fs::write(&path, with_checksum(forged.clone())).unwrap();
    assert!(matches!(
        load(material).unwrap_err().fault,
        Fault::BadDistance { .. }
    ));
    forged[15] = 1;
    fs::write(&path, with_checksum(forged.clone())).unwrap();
    assert!(load(material).unwrap().saturated());
    forged[15] = 2;
    fs::write(&path, with_checksum(forged)).unwrap();
    assert!(matches!(
        load(material).unwrap_err().fault,
        Fault::BadFlags(2)
    ));
    // The table of values under the distances' name, and another material's distances.
    fs::copy(dir.join(material.file_name(Variant::Russian)), &path).unwrap();
    assert!(matches!(load(material).unwrap_err().fault, Fault::BadMagic));
    fs::copy(
        dir.join(Material::new(0, 2, 0, 1).distance_file_name(Variant::Russian)),
        &path,
    )
    .unwrap();
    assert!(matches!(
        load(material).unwrap_err().fault,
        Fault::WrongMaterial { .. }
    ));
    // A missing distance file: the tables still open, with their distances they do not.
    fs::remove_file(&path).unwrap();
    Egdb::open(&dir, Variant::Russian, 3).unwrap();
    let err = Egdb::open_with_distances(&dir, Variant::Russian, 3).unwrap_err();
    assert!(matches!(err.fault, Fault::Io(_)), "{err}");
    assert_eq!(err.path, path);
    let _ = fs::remove_dir_all(&dir);
}

fn table_of(egdb: &Egdb, material: Material) -> &Table {
    egdb.tables().find(|t| t.material() == material).unwrap()
}
