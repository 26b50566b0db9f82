press
bounce 4 100us    # four extra edges; the button ends down
wait 50ms
release
bounce 2 100us
wait 50ms
hold 20ms
wait 20ms
