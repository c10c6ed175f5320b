"""The rejection an implementation raises; the harness reads its ``code`` attribute."""


class Rejection(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
