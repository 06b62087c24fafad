pub fn register_glow_passes() {}
