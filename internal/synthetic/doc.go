// Package synthetic generates histories of one-versus-one games with a
// fixed seed, shaped like a professional tennis tour, to benchmark
// TrueSkill Through Time at scale: players with careers of random length,
// true skills that drift, and each week's games between active players of
// similar strength, won by the better performance.
package synthetic
