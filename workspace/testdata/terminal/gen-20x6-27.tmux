20 6 0 0



mmmmmmmmmmmmmmmmmmmm

           
