"""Process plumbing: `tether` (child processes tied to their parent, files in memory),
`forked` (one Python call in a forked child killed at a deadline), `memory` (resident and
address-space measures and limits) and `interrupts` (Ctrl-C during a native solver call)."""
