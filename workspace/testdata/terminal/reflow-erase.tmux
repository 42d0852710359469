40 24 1 2
qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq

W





















