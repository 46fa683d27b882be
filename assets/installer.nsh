; Explorer's context-menu entry on a folder and on a folder's background, as File Locksmith and
; LockHunter offer theirs: "Which process holds this folder? — holdwatch" starts the app on that folder
; (`holdwatch.exe "%V"`; electron/dir-argument.ts reads it, a running app takes it as a second instance).
; electron-builder includes this file (electron-builder.yml: nsis.include) and calls the macros in its
; install and uninstall sections. UTF-8 with a BOM: the label's em dash must not depend on makensis's
; input charset.
;
; SHCTX, not HKCU: with perMachine false the assisted installer still asks "just me or all users", and
; electron-builder sets the shell context to match (HKCU\Software\Classes for just me, HKLM for all users),
; so the entry lives where the install does and the uninstaller finds it there.

!define HOLDWATCH_MENU_LABEL "Which process holds this folder? — holdwatch"
!define HOLDWATCH_FOLDER_KEY "Software\Classes\Directory\shell\holdwatch"
!define HOLDWATCH_BACKGROUND_KEY "Software\Classes\Directory\Background\shell\holdwatch"

!macro holdwatchWriteFolderVerb KEY
  WriteRegStr SHCTX "${KEY}" "" "${HOLDWATCH_MENU_LABEL}"
  WriteRegStr SHCTX "${KEY}" "Icon" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}",0'
  ; %V: the folder clicked, or the folder whose background was clicked. Quoted: paths have spaces.
  WriteRegStr SHCTX "${KEY}\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" "%V"'
!macroend

!macro customInstall
  !insertmacro holdwatchWriteFolderVerb "${HOLDWATCH_FOLDER_KEY}"
  !insertmacro holdwatchWriteFolderVerb "${HOLDWATCH_BACKGROUND_KEY}"
!macroend

!macro customUnInstall
  DeleteRegKey SHCTX "${HOLDWATCH_FOLDER_KEY}"
  DeleteRegKey SHCTX "${HOLDWATCH_BACKGROUND_KEY}"
!macroend
