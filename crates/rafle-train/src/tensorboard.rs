//! TensorBoard event files, written next to `metrics.csv` by both trainers
//! (through [`crate::metrics::Metrics`]) with the same names, so that
//! `tensorboard --logdir runs` shows a run live.
//!
//! The format is TensorBoard's: a file `events.out.tfevents.<secs>.<host>`
//! of TFRecords (length as u64 little-endian, its masked CRC-32C, the bytes,
//! their masked CRC-32C), each an `Event` protocol buffer: first the file
//! version, then one scalar per value (`wall_time`, `step`, `summary.value
//! {tag, simple_value}`). The few protobuf fields needed are encoded here by
//! hand; `python/tests/test_tensorboard.py` reads the files back with
//! TensorBoard's own reader.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// CRC-32C (Castagnoli), as TFRecord uses it.
fn crc32c(data: &[u8]) -> u32 {
    const POLY: u32 = 0x82F6_3B78;
    let mut crc = !0u32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ POLY
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn masked_crc(data: &[u8]) -> u32 {
    let c = crc32c(data);
    (c.rotate_right(15)).wrapping_add(0xa282_ead8)
}

fn varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Field key: number and wire type (0 varint, 1 fixed64, 2 bytes, 5 fixed32).
fn key(field: u32, wire: u8, out: &mut Vec<u8>) {
    varint(((field as u64) << 3) | wire as u64, out);
}

fn bytes_field(field: u32, bytes: &[u8], out: &mut Vec<u8>) {
    key(field, 2, out);
    varint(bytes.len() as u64, out);
    out.extend_from_slice(bytes);
}

/// An `Event` with `wall_time` (field 1), `step` (2) and either
/// `file_version` (3) or a one-value `summary` (5).
fn event(
    wall_time: f64,
    step: i64,
    file_version: Option<&str>,
    scalar: Option<(&str, f32)>,
) -> Vec<u8> {
    let mut e = Vec::new();
    key(1, 1, &mut e);
    e.extend_from_slice(&wall_time.to_le_bytes());
    key(2, 0, &mut e);
    varint(step as u64, &mut e);
    if let Some(v) = file_version {
        bytes_field(3, v.as_bytes(), &mut e);
    }
    if let Some((tag, value)) = scalar {
        // Summary.Value: tag (1), simple_value (2, float).
        let mut val = Vec::new();
        bytes_field(1, tag.as_bytes(), &mut val);
        key(2, 5, &mut val);
        val.extend_from_slice(&value.to_le_bytes());
        // Summary: value (1).
        let mut summary = Vec::new();
        bytes_field(1, &val, &mut summary);
        bytes_field(5, &summary, &mut e);
    }
    e
}

/// Appends scalars to a new event file in a run folder.
#[derive(Debug)]
pub struct EventWriter {
    file: File,
    pub path: PathBuf,
}

impl EventWriter {
    /// Creates `dir/events.out.tfevents.<secs>.<host>` (a new file per
    /// writer, as TensorBoard expects; a resumed run adds one).
    pub fn create(dir: &Path) -> Result<EventWriter> {
        let now = wall_time();
        let host = std::env::var("HOSTNAME")
            .ok()
            .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty() && !h.contains(['/', '\\']))
            .unwrap_or_else(|| "rafle".into());
        let path = dir.join(format!(
            "events.out.tfevents.{}.{host}.{}",
            now as u64,
            std::process::id()
        ));
        let file =
            File::create(&path).with_context(|| format!("cannot create {}", path.display()))?;
        let mut w = EventWriter { file, path };
        w.record(&event(now, 0, Some("brain.Event:2"), None))?;
        Ok(w)
    }

    fn record(&mut self, data: &[u8]) -> Result<()> {
        let len = (data.len() as u64).to_le_bytes();
        let mut rec = Vec::with_capacity(data.len() + 16);
        rec.extend_from_slice(&len);
        rec.extend_from_slice(&masked_crc(&len).to_le_bytes());
        rec.extend_from_slice(data);
        rec.extend_from_slice(&masked_crc(data).to_le_bytes());
        self.file
            .write_all(&rec)
            .and_then(|_| self.file.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }

    /// One scalar at `step`, written through at once (TensorBoard reads
    /// the file while the run goes on).
    pub fn scalar(&mut self, tag: &str, step: u64, value: f64) -> Result<()> {
        self.record(&event(
            wall_time(),
            step as i64,
            None,
            Some((tag, value as f32)),
        ))
    }
}

fn wall_time() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32c_and_varints_match_their_specifications() {
        // The CRC-32C check value (RFC 3720, B.4) and TFRecord's mask.
        assert_eq!(crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(crc32c(b""), 0);
        let mut v = Vec::new();
        varint(300, &mut v);
        assert_eq!(v, [0xAC, 0x02]);
        let e = event(1.5, 7, None, Some(("loss/total", 0.5)));
        // wall_time (key 0x09, 8 bytes), step (0x10, 7), summary (0x2a ...).
        assert_eq!(e[0], 0x09);
        assert_eq!(&e[1..9], &1.5f64.to_le_bytes());
        assert_eq!(&e[9..11], &[0x10, 7]);
        assert_eq!(e[11], 0x2a);
    }

    #[test]
    fn records_are_framed_with_their_lengths_and_checksums() {
        let dir = std::env::temp_dir().join(format!("rafle-tb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut w = EventWriter::create(&dir).unwrap();
        w.scalar("eval/elo", 3, 12.5).unwrap();
        let bytes = std::fs::read(&w.path).unwrap();
        let mut at = 0;
        let mut records = 0;
        while at < bytes.len() {
            let len = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
            let crc = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap());
            assert_eq!(crc, masked_crc(&bytes[at..at + 8]));
            let data = &bytes[at + 12..at + 12 + len];
            let crc = u32::from_le_bytes(bytes[at + 12 + len..at + 16 + len].try_into().unwrap());
            assert_eq!(crc, masked_crc(data));
            at += 16 + len;
            records += 1;
        }
        assert_eq!(records, 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
