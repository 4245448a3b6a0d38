package program

// writesBuild registers the programs risk classifies in risk/writes_build.go.
func (r builder) writesBuild() {
	r.add(0, `7zz lzma unlzma unlz4 mogrify objcopy standard`)

	r.add(Builds, `7z 7za autopep8 bunzip2 bzip2 clang-format cpio dos2unix gunzip gzip isort lz4 pyinstaller shfmt
		stylelint unix2dos unxz unzstd xz yapf zstd`)
}
