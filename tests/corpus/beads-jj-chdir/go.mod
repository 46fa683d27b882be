module example.com/beadsjj

go 1.19
