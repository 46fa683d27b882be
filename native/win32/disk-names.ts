// Which kernel object names are files on a disk: local volumes, their shadow copies, RAM disks and
// file-system drivers that mount as volumes, and the network redirectors. Only these get the second
// query (NtQueryInformationFile), which hangs on a synchronous pipe as the name query does; and only
// their cached names are re-checked at every focus scan (name-cache.ts). The first list had local
// volumes and SMB only: a file on a RAM disk or in a shadow copy was never known to be a directory or
// delete-pending. Wine names files by drive (`\??\Z:\...`).
const DISK_DEVICE =
  /^\\Device\\(HarddiskVolume\d+|HarddiskVolumeShadowCopy\d+|Harddisk\d+\\Partition\d+|CdRom\d+|Volume\{[0-9a-f-]+\}|ImDisk\d+|Ramdisk\{?[0-9a-f-]*\}?|Mup|LanmanRedirector|WebDavRedirector|RdpDr|VBoxMiniRdr|vmsmb)\\/i;
const WINE_DRIVE = /^\\\?\?\\[A-Za-z]:\\/;

export function isDiskName(name: string): boolean {
  return DISK_DEVICE.test(name) || WINE_DRIVE.test(name);
}
