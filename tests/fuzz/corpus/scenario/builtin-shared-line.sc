hold 20ms
wait 10ms
# INTC line 12, level, shared: 200 events on each device, 1 ms apart.
shared 12 200 1ms
wait 10ms
hold 20ms
wait 20ms
