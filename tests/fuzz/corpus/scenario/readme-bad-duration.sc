press
release
wait 5
