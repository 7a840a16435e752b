use super::*;
use crate::position::perft;

fn pos(fen: &str) -> Tavreli {
    match Tavreli::from_fen(fen) {
        Ok(p) => p,
        Err(e) => panic!("{fen}: {e}"),
    }
}

#[test]
fn start_perft() {
    let mut p = Tavreli::startpos();
    assert_eq!(perft(&mut p, 1), 39);
    assert_eq!(perft(&mut p, 2), 1519);
}
