100 30 8 0
[38;5;130m      1 [39m# Network services, Internet style
[38;5;130m      2 [39m#
[38;5;130m      3 [39m# Updated from https://www.iana.org/assignments/service-names-port-numbers/service-names-por
t-numbers.xhtml .
[38;5;130m      4 [39m#
[38;5;130m      5 [39m# New ports will be added on request if they have been officially assigned
[38;5;130m      6 [39m# by IANA and used in the real-world or are needed by a debian package.
[38;5;130m      7 [39m# If you need a huge list of used numbers please install the nmap package.
[38;5;130m      8 
      9 [39mtcpmux          1/tcp                           # TCP port service multiplexer
[38;5;130m     10 [39mecho            7/tcp
[38;5;130m     11 [39mecho            7/udp
[38;5;130m     12 [39mdiscard         9/tcp           sink null
[38;5;130m     13 [39mdiscard         9/udp           sink null
[38;5;130m     14 [39msystat          11/tcp          users
[38;5;130m     15 [39mdaytime         13/tcp
[38;5;130m     16 [39mdaytime         13/udp
[38;5;130m     17 [39mnetstat         15/tcp
[38;5;130m     18 [39mqotd            17/tcp          quote
[38;5;130m     19 [39mchargen         19/tcp          ttytst source
[38;5;130m     20 [39mchargen         19/udp          ttytst source
[38;5;130m     21 [39mftp-data        20/tcp
[38;5;130m     22 [39mftp             21/tcp
[38;5;130m     23 [39mfsp             21/udp          fspd
[38;5;130m     24 [39mssh             22/tcp                          # SSH Remote Login Protocol
[38;5;130m     25 [39mtelnet          23/tcp
[38;5;130m     26 [39msmtp            25/tcp          mail
[38;5;130m     27 [39mtime            37/tcp          timserver
[38;5;130m     28 [39mtime            37/udp          timserver

