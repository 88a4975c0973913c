package scorebased_test

import (
	"context"
	"testing"

	"github.com/skillgraph/skillgraph/models/scorebased"
)

var sinkTeam scorebased.Team

func BenchmarkGaussianODUpdate(b *testing.B) {
	p := params(0)
	m := scorebased.NewGaussianOD(p)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		a, _, err := m.Rate(context.Background(), teamA, teamB, 2, 1)
		if err != nil {
			b.Fatal(err)
		}
		sinkTeam = a
	}
}

func BenchmarkPoissonODUpdate(b *testing.B) {
	p := params(0)
	p.Beta = 0.3
	m := scorebased.NewPoissonOD(p)
	a := scorebased.Team{Offence: scorebased.Rating{Mu: 1.2, Sigma: 0.8}, Defence: scorebased.Rating{Mu: 0.3, Sigma: 0.5}}
	c := scorebased.Team{Offence: scorebased.Rating{Mu: 0.9, Sigma: 1.5}, Defence: scorebased.Rating{Mu: 0.1, Sigma: 0.4}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		x, _, _, err := m.Rate(context.Background(), a, c, 2, 1)
		if err != nil {
			b.Fatal(err)
		}
		sinkTeam = x
	}
}
