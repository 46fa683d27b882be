module launcherhistory

go 1.19
