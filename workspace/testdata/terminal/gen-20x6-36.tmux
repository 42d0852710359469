20 6 0 0
[5:3m[97m[45mffff ü│ggggggggggg[0m[39m[45m  
[5:3m[97mgggggggg




