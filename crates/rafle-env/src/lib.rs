//! rafle-env (being written).
