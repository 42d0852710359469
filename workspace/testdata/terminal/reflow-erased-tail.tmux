20 12 6 2
6
ab                  
     X      
abcdefghijabcdefghij
abcde       
a  bc               
                    
adef                
                  
a                   
          
$ 
