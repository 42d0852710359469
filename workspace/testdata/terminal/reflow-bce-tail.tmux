20 6 3 3
a         
ab
end
$ X


