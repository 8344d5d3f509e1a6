//! `rafle._rafle.svg_to_rgb`: an SVG picture (such as `Game.to_svg`) as an
//! RGB array, rasterised by resvg (pure Rust, so no system library is
//! needed; text is not drawn, as no font is loaded).

use crate::errors::value_error;
use numpy::{IntoPyArray, PyArray3};
use pyo3::prelude::*;
use resvg::{tiny_skia, usvg};

/// The SVG document `svg` drawn at its own size on white: (H, W, 3) uint8.
#[pyfunction]
pub fn svg_to_rgb<'py>(py: Python<'py>, svg: &str) -> PyResult<Bound<'py, PyArray3<u8>>> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| value_error(format!("not an SVG picture: {e}")))?;
    let size = tree.size().to_int_size();
    let (w, h) = (size.width(), size.height());
    let mut pixmap =
        tiny_skia::Pixmap::new(w, h).ok_or_else(|| value_error("the picture has no area"))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    // Premultiplied RGBA over white: c + (255 - alpha).
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| {
            let blank = 255 - p[3];
            [p[0] + blank, p[1] + blank, p[2] + blank]
        })
        .collect();
    let img =
        ndarray::Array3::from_shape_vec((h as usize, w as usize, 3), rgb).map_err(value_error)?;
    Ok(img.into_pyarray(py))
}
