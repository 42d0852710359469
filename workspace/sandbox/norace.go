//go:build !race

package sandbox

const raceBuild = false
