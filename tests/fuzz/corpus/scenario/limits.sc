wait 10s
wait 10s
wait 10s
wait 10s
wait 10s
wait 10s
wait 1ns
