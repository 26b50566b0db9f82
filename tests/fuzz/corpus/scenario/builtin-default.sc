# Presses of several lengths, with gaps, as a hand would make them.
wait 10ms
hold 5ms
wait 30ms
hold 20ms
wait 30ms
hold 100ms
wait 30ms
hold 500ms
wait 30ms
# A double click: two short presses 60 ms apart.
hold 40ms
wait 60ms
hold 40ms
wait 30ms
# Shorter than the three status reads (~120 us of wire at 2.6 MHz): the
# driver reads the button already up and the input core drops the report.
hold 20us
wait 30ms
hold 10ms
wait 20ms
