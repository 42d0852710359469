80 24 0 0
                              [4:3m[45müxalphastop日本│beta é vvvvvvvvvvvvvvvvvvvvvvvvvvv
vvvvvvvvvvvvvvvvvvvvv[0m[39m[46m                                                           












                      [4:3m[45mü wrapwrapx中文ü alpha ü wrap│ wrap alphastopbetabetaü-[0m[39m[46m   
        [4:3m中文 ébeta中文alpha日本 stop█-








