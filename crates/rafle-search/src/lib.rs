//! rafle-search (being written).
