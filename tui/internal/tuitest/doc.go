// Package tuitest supports the TUI tests: in-memory fake cores
// (FakeCore, FakePages, FakeTerm) and the Harness that drives the root
// model synchronously and deterministically at a fixed size (see
// Harness: no wall-clock deadline decides what a test sees). Only _test.go files import it.
package tuitest
