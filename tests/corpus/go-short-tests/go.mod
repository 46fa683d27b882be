module example.com/short

go 1.19
