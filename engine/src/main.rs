//! `volkhv`: the engine binary (protocol front end to come).

fn main() {}
