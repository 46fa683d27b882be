class ValidChipsetHelper:
    def read_did(self):
        return 0x4660


class InvalidChipsetHelper:
    def read_did(self):
        return 0xFFFF
