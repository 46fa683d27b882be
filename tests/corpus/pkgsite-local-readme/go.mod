module golang.org/x/pkgsite

go 1.19
