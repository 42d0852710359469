// Package tuitest supports the TUI tests: in-memory fake cores
// (FakeCore, FakePages, FakeTerm) and the Harness that drives the root
// model synchronously at a fixed size. Only _test.go files import it.
package tuitest
