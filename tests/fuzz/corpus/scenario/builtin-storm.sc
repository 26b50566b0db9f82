hold 20ms
wait 10ms
storm 13 110000
wait 20ms
hold 20ms
wait 20ms
