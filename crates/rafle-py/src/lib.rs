//! rafle-py (being written).
