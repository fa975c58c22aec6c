//! Reading scenarios from TOML (being written).

use crate::model::InputError;

use super::Scenario;

impl Scenario {
    /// Reads and checks a scenario; errors name the key (`events[2].client`).
    pub fn from_toml(text: &str) -> Result<Scenario, InputError> {
        let _ = text;
        Err(InputError::new("", "scenario reading is being written"))
    }
}

/// A stable digest of a scenario file's text, written into every output.
pub fn scenario_hash(text: &str) -> String {
    let _ = text;
    String::new()
}
