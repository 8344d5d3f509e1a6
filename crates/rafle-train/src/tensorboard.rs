//! TensorBoard event files, written next to `metrics.csv` by both trainers
//! (through [`crate::metrics::Metrics`]) with the same names, so that
//! `tensorboard --logdir runs` shows a run live.
//!
//! The format is TensorBoard's: a file `events.out.tfevents.<secs>.<host>`
//! of TFRecords (length as u64 little-endian, its masked CRC-32C, the bytes,
//! their masked CRC-32C), each an `Event` protocol buffer: first the file
//! version, then one scalar per value (`wall_time`, `step`, `summary.value
//! {tag, simple_value}`). The messages below are the fields rafle writes of
//! TensorFlow's `event.proto` and `summary.proto`, encoded by prost;
//! `python/tests/test_tensorboard.py` reads the files back with
//! TensorBoard's own reader.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use prost::Message;

/// `tensorflow.Event`: `file_version` and `summary` are one `oneof`; an
/// event sets one of them.
#[derive(Clone, PartialEq, Message)]
struct Event {
    #[prost(double, tag = "1")]
    wall_time: f64,
    #[prost(int64, tag = "2")]
    step: i64,
    #[prost(string, optional, tag = "3")]
    file_version: Option<String>,
    #[prost(message, optional, tag = "5")]
    summary: Option<Summary>,
}

/// `tensorflow.Summary`.
#[derive(Clone, PartialEq, Message)]
struct Summary {
    #[prost(message, repeated, tag = "1")]
    value: Vec<SummaryValue>,
}

/// `tensorflow.Summary.Value`: `simple_value` is a member of its `oneof`,
/// hence optional (a scalar 0 is still written).
#[derive(Clone, PartialEq, Message)]
struct SummaryValue {
    #[prost(string, tag = "1")]
    tag: String,
    #[prost(float, optional, tag = "2")]
    simple_value: Option<f32>,
}

/// TFRecord's masked CRC-32C (Castagnoli).
fn masked_crc(data: &[u8]) -> u32 {
    crc32c::crc32c(data)
        .rotate_right(15)
        .wrapping_add(0xa282_ead8)
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
        w.record(&Event {
            wall_time: now,
            step: 0,
            file_version: Some("brain.Event:2".into()),
            summary: None,
        })?;
        Ok(w)
    }

    fn record(&mut self, event: &Event) -> Result<()> {
        let data = event.encode_to_vec();
        let data = data.as_slice();
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
        self.record(&Event {
            wall_time: wall_time(),
            step: step as i64,
            file_version: None,
            summary: Some(Summary {
                value: vec![SummaryValue {
                    tag: tag.into(),
                    simple_value: Some(value as f32),
                }],
            }),
        })
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
    fn events_encode_as_tensorflow_writes_them() {
        // The CRC-32C check value (RFC 3720, B.4) under TFRecord's mask.
        assert_eq!(crc32c::crc32c(b"123456789"), 0xE306_9283);
        assert_eq!(masked_crc(b""), 0xa282_ead8);
        let e = Event {
            wall_time: 1.5,
            step: 7,
            file_version: None,
            summary: Some(Summary {
                value: vec![SummaryValue {
                    tag: "a".into(),
                    simple_value: Some(0.0),
                }],
            }),
        }
        .encode_to_vec();
        // wall_time (key 0x09, 8 bytes), step (0x10, 7), summary (0x2a,
        // length 10: value (0x0a, length 8: tag "a", simple_value 0.0 kept)).
        let mut want = vec![0x09];
        want.extend_from_slice(&1.5f64.to_le_bytes());
        want.extend_from_slice(&[0x10, 7, 0x2a, 10, 0x0a, 8, 0x0a, 1, b'a', 0x15, 0, 0, 0, 0]);
        assert_eq!(e, want);
    }

    #[test]
    fn records_are_framed_with_their_lengths_and_checksums() {
        let dir = std::env::temp_dir().join(format!("rafle-tb-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut w = EventWriter::create(&dir).unwrap();
        w.scalar("eval/elo", 3, 12.5).unwrap();
        let first = Event {
            wall_time: 0.0,
            step: 0,
            file_version: Some("brain.Event:2".into()),
            summary: None,
        };
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
            let e = Event::decode(data).unwrap();
            if records == 0 {
                assert_eq!(
                    Event {
                        wall_time: 0.0,
                        ..e.clone()
                    },
                    first
                );
            } else {
                assert_eq!(e.step, 3);
                assert_eq!(e.summary.unwrap().value[0].simple_value, Some(12.5));
            }
            at += 16 + len;
            records += 1;
        }
        assert_eq!(records, 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
