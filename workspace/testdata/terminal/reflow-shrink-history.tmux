40 10 0 9
27
28
29
30
xyz xyz xyz xyz xyz xyz xyz xyz xyz xyz 
xyz xyz xyz xyz xyz xyz xyz xyz xyz xyz 
xyz xyz xyz xyz xyz xyz xyz xyz xyz xyz 
end
after

