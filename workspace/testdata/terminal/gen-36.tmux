80 24 0 0
[5:3m[97m[45mfffffffffffffggggggggggggggggggggggggggggggggggggggggggggggg[0m[39m[45m             























