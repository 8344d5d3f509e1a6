//! Table files: one per slice, `<dir>/<slice>.egtb`, a 96-byte header and
//! the codes ([`crate::Code`]), one per index, 8 or 16 bits little-endian.
//!
//! ```text
//! offset  size  field
//!  0      8     magic "RAFLEGTB"
//!  8      4     format version (FORMAT)
//! 12      1     code width in bytes (1 or 2), then 3 zero bytes
//! 16     16     variant name, zero-padded
//! 32      4     slice: own men, own kings, opp men, opp kings; 4 zero bytes
//! 40      8     indices (codes in the file)
//! 48      8     positions (indices that are positions)
//! 56     24     wins, draws, losses
//! 80      4     longest win, longest loss (plies); 4 zero bytes
//! 88      8     checksum of the header (this field zero) and the codes
//! 96            codes
//! ```
//!
//! A file is written under a temporary name and renamed when complete, so a
//! reader never sees half a table; one that fails any check (a truncated or
//! corrupted file, another variant's or another slice's, a header whose
//! index count is not its slice's or whose figures are not its codes') is
//! refused with an error naming it. A file that reads is byte for byte the
//! one [`encode`] makes of its codes (rafle-props checks this on any bytes).

use crate::index::Indexer;
use crate::material::Material;
use crate::value::Value;
use rafle_core::Variant;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"RAFLEGTB";
/// Bumped whenever the index or the codes change meaning.
pub const FORMAT: u32 = 1;
const HEADER: usize = 96;

/// What a slice's table says of itself (its header).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceStats {
    pub material: Material,
    pub indices: u64,
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub longest_win: u16,
    pub longest_loss: u16,
    /// Bytes on disk.
    pub bytes: u64,
}

impl SliceStats {
    /// The figures of a table's codes.
    pub fn of(material: Material, codes: &[u16]) -> SliceStats {
        SliceStats::tally(material, codes.iter().copied())
    }

    /// The figures of codes one by one (no copy of a table read back).
    fn tally(material: Material, codes: impl Iterator<Item = u16>) -> SliceStats {
        let mut s = SliceStats {
            material,
            indices: 0,
            positions: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            longest_win: 0,
            longest_loss: 0,
            bytes: 0,
        };
        for c in codes {
            s.indices += 1;
            match Value::from_code(c) {
                None => {}
                Some(Value::Draw) => s.draws += 1,
                Some(Value::Win(d)) => {
                    s.wins += 1;
                    s.longest_win = s.longest_win.max(d);
                }
                Some(Value::Loss(d)) => {
                    s.losses += 1;
                    s.longest_loss = s.longest_loss.max(d);
                }
            }
        }
        s.positions = s.wins + s.draws + s.losses;
        s.bytes = HEADER as u64 + s.indices * width(&s) as u64;
        s
    }
}

/// Code width of a table: one byte when every code fits.
fn width(s: &SliceStats) -> usize {
    let top = Value::Win(s.longest_win)
        .code()
        .max(Value::Loss(s.longest_loss).code());
    if top <= u8::MAX as u16 {
        1
    } else {
        2
    }
}

/// The path of a slice's table in `dir`.
pub fn path(dir: &Path, m: Material) -> PathBuf {
    dir.join(format!("{m}.egtb"))
}

fn checksum(header: &[u8], codes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for chunk in header.chunks(8).chain(codes.chunks(8)) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(w))
            .wrapping_mul(0x0000_0100_0000_01B3)
            .rotate_left(29);
    }
    h
}

fn header(v: Variant, s: &SliceStats, width: usize) -> Vec<u8> {
    let mut h = Vec::with_capacity(HEADER);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT.to_le_bytes());
    h.extend_from_slice(&[width as u8, 0, 0, 0]);
    let mut name = [0u8; 16];
    name[..v.name().len()].copy_from_slice(v.name().as_bytes());
    h.extend_from_slice(&name);
    let m = s.material;
    h.extend_from_slice(&[m.own_men, m.own_kings, m.opp_men, m.opp_kings, 0, 0, 0, 0]);
    for x in [s.indices, s.positions, s.wins, s.draws, s.losses] {
        h.extend_from_slice(&x.to_le_bytes());
    }
    h.extend_from_slice(&s.longest_win.to_le_bytes());
    h.extend_from_slice(&s.longest_loss.to_le_bytes());
    h.extend_from_slice(&[0; 4]);
    h.extend_from_slice(&[0; 8]);
    debug_assert_eq!(h.len(), HEADER);
    h
}

/// The bytes of the file holding `codes` as slice `m` of `v`, and their
/// figures.
pub fn encode(v: Variant, m: Material, codes: &[u16]) -> (SliceStats, Vec<u8>) {
    let stats = SliceStats::of(m, codes);
    let w = width(&stats);
    let mut bytes = header(v, &stats, w);
    bytes.reserve_exact(codes.len() * w);
    if w == 1 {
        bytes.extend(codes.iter().map(|&c| c as u8));
    } else {
        bytes.extend(codes.iter().flat_map(|c| c.to_le_bytes()));
    }
    seal(&mut bytes);
    (stats, bytes)
}

/// Writes the checksum of a file's bytes (header and codes) into its
/// header.
pub fn seal(bytes: &mut [u8]) {
    if bytes.len() < HEADER {
        return;
    }
    bytes[88..96].fill(0);
    let sum = checksum(&bytes[..HEADER], &bytes[HEADER..]);
    bytes[88..96].copy_from_slice(&sum.to_le_bytes());
}

/// Writes a slice's codes to `dir`, atomically (temporary name, then
/// rename). Returns its figures.
pub fn write(dir: &Path, v: Variant, m: Material, codes: &[u16]) -> Result<SliceStats, String> {
    let (stats, bytes) = encode(v, m, codes);
    let target = path(dir, m);
    rafle_core::atomic::replace_with(&target, |tmp| fs::write(tmp, &bytes))
        .map_err(|e| format!("{}: {e}", target.display()))?;
    Ok(stats)
}

/// A table read back: its codes and figures.
#[derive(Debug)]
pub struct Table {
    pub stats: SliceStats,
    width: usize,
    data: Vec<u8>,
}

impl Table {
    /// The code at index `i`.
    #[inline]
    pub fn code(&self, i: u64) -> u16 {
        let i = i as usize;
        if self.width == 1 {
            self.data[i] as u16
        } else {
            u16::from_le_bytes([self.data[2 * i], self.data[2 * i + 1]])
        }
    }

    /// Every code, by index.
    pub fn codes(&self) -> Vec<u16> {
        (0..self.stats.indices).map(|i| self.code(i)).collect()
    }

    /// A table from codes in memory (a build's own, before it is read back).
    pub fn from_codes(m: Material, codes: &[u16]) -> Table {
        Table {
            stats: SliceStats::of(m, codes),
            width: 2,
            data: codes.iter().flat_map(|c| c.to_le_bytes()).collect(),
        }
    }
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

/// Checks a header, returning the figures and the code width.
fn read_header(
    file: &Path,
    head: &[u8],
    v: Variant,
    m: Material,
    len: u64,
) -> Result<(SliceStats, usize), String> {
    let bad = |why: &str| format!("{}: {why}", file.display());
    if head.len() < HEADER || &head[..8] != MAGIC {
        return Err(bad("not a rafle tablebase file"));
    }
    let format = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
    if format != FORMAT {
        return Err(bad(&format!(
            "format {format}, this rafle reads format {FORMAT}: rebuild the tables"
        )));
    }
    let name_end = head[16..32].iter().position(|&b| b == 0).unwrap_or(16);
    let name = String::from_utf8_lossy(&head[16..16 + name_end]).to_string();
    if name != v.name() {
        // Quoted, escaped, unless a plain name (a variant's).
        let name = match name.chars().all(|c| c.is_ascii_alphanumeric()) {
            true => name,
            false => format!("{name:?}"),
        };
        return Err(bad(&format!("a table of {name}, not {v}")));
    }
    let got = Material {
        own_men: head[32],
        own_kings: head[33],
        opp_men: head[34],
        opp_kings: head[35],
    };
    if got != m {
        return Err(bad(&format!("holds slice {got}, not {m}")));
    }
    let width = head[12] as usize;
    let stats = SliceStats {
        material: m,
        indices: u64_at(head, 40),
        positions: u64_at(head, 48),
        wins: u64_at(head, 56),
        draws: u64_at(head, 64),
        losses: u64_at(head, 72),
        longest_win: u16_at(head, 80),
        longest_loss: u16_at(head, 82),
        bytes: len,
    };
    // The slice's own index size, not the header's, bounds what is read.
    let slice = Indexer::new(v).slice(m).map_err(|e| bad(&e))?;
    if stats.indices != slice.size {
        return Err(bad(&format!(
            "corrupted (its header says {} indices, slice {m} has {})",
            stats.indices, slice.size
        )));
    }
    let size = (stats.indices)
        .checked_mul(width as u64)
        .and_then(|b| b.checked_add(HEADER as u64));
    if !(width == 1 || width == 2) || size != Some(len) {
        return Err(bad(
            "truncated or corrupted (its size does not match its header)",
        ));
    }
    // Reserved bytes and padding: the header is the one the writer makes.
    if head[..88] != header(v, &stats, width)[..88] {
        return Err(bad("corrupted (a reserved header byte is set)"));
    }
    Ok((stats, width))
}

/// Checks a whole file's bytes (header, checksum, and figures that match
/// the codes), naming `file` in any error.
pub fn decode(file: &Path, mut bytes: Vec<u8>, v: Variant, m: Material) -> Result<Table, String> {
    let (stats, width) = read_header(file, &bytes, v, m, bytes.len() as u64)?;
    let stored = u64_at(&bytes, 88);
    let mut head = bytes[..HEADER].to_vec();
    head[88..96].fill(0);
    if checksum(&head, &bytes[HEADER..]) != stored {
        return Err(format!(
            "{}: corrupted (checksum mismatch): delete it and build again",
            file.display()
        ));
    }
    bytes.drain(..HEADER);
    let table = Table {
        stats,
        width,
        data: bytes,
    };
    let own = SliceStats {
        bytes: stats.bytes,
        ..SliceStats::tally(m, (0..stats.indices).map(|i| table.code(i)))
    };
    if own != stats || width != self::width(&own) {
        return Err(format!(
            "{}: corrupted (its header's figures do not match its codes)",
            file.display()
        ));
    }
    Ok(table)
}

/// Reads and checks the table of slice `m` of variant `v` in `dir`. The
/// header is checked before the codes are read: no more is read than the
/// slice's table holds.
pub fn read(dir: &Path, v: Variant, m: Material) -> Result<Table, String> {
    let file = path(dir, m);
    let cannot = |e: std::io::Error| format!("{}: {e}", file.display());
    let stats = read_stats(dir, v, m)?;
    let mut bytes = Vec::with_capacity(stats.bytes as usize);
    fs::File::open(&file)
        .and_then(|f| f.take(stats.bytes).read_to_end(&mut bytes))
        .map_err(cannot)?;
    decode(&file, bytes, v, m)
}

/// The figures of a slice's table from its header alone (`rafle egtb stats`).
pub fn read_stats(dir: &Path, v: Variant, m: Material) -> Result<SliceStats, String> {
    let file = path(dir, m);
    let len = fs::metadata(&file)
        .map_err(|e| format!("{}: {e}", file.display()))?
        .len();
    let mut head = vec![0u8; HEADER];
    let mut f = fs::File::open(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    std::io::Read::read_exact(&mut f, &mut head)
        .map_err(|_| format!("{}: truncated (no complete header)", file.display()))?;
    Ok(read_header(&file, &head, v, m, len)?.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Code;

    fn slice() -> (Variant, Material, u64) {
        let v = Variant::English;
        let m = Material::example(v);
        (v, m, Indexer::new(v).slice(m).unwrap().size)
    }

    /// A header whose index count is not the slice's is refused on its own,
    /// before the codes are read (a hostile count cannot make a reader
    /// allocate, nor a probe index past the codes), even when the file's
    /// size and checksum agree with it.
    #[test]
    fn a_header_must_count_its_slices_indices() {
        let (v, m, size) = slice();
        let dir = std::env::temp_dir().join(format!("rafle-egtb-count-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let codes = vec![Code::DRAW; size as usize];
        let (_, good) = encode(v, m, &codes);
        let f = path(&dir, m);
        for indices in [size - 1, size + (1 << 28)] {
            let mut bytes = good.clone();
            bytes[40..48].copy_from_slice(&indices.to_le_bytes());
            bytes[64..72].copy_from_slice(&indices.to_le_bytes()); // draws
            bytes.resize(HEADER + indices.min(size) as usize, 1);
            seal(&mut bytes);
            fs::write(&f, &bytes).unwrap();
            // The larger one as a sparse file of the size its header says.
            fs::File::options()
                .write(true)
                .open(&f)
                .unwrap()
                .set_len(HEADER as u64 + indices)
                .unwrap();
            for e in [
                read(&dir, v, m).unwrap_err(),
                read_stats(&dir, v, m).unwrap_err(),
            ] {
                assert!(e.contains(&format!("says {indices} indices")), "{e}");
            }
        }
        fs::write(&f, &good).unwrap();
        assert_eq!(read(&dir, v, m).unwrap().codes(), codes);
        let _ = fs::remove_dir_all(&dir);
    }
}
