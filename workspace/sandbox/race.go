//go:build race

package sandbox

// raceBuild: a race-enabled build's init would sleep 1 s at exit (the race
// runtime's atexit_sleep_ms) after every sandboxed program; Wrap turns that
// off for the init only.
const raceBuild = true
