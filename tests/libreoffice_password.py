"""Save a document with a password as LibreOffice itself does, through its own API (UNO): the command line
cannot be told a password. Run by the system's python3, which has the uno module (python3-uno):
``python3 tests/libreoffice_password.py SOURCE TARGET FILTER PASSWORD PROFILE``."""

import contextlib
import os
import subprocess
import sys
import time

import uno  # type: ignore[import-not-found]
from com.sun.star.beans import NamedValue, PropertyValue  # type: ignore[import-not-found]


def _property(name: str, value: object) -> PropertyValue:
    prop = PropertyValue()
    prop.Name, prop.Value = name, value
    return prop


def _protection(filter_name: str, password: str) -> PropertyValue:
    """How a filter is told the password: the binary formats' filters take it as it is; the Office Open XML
    ones take encryption data, ECMA-376 Standard encryption (LibreOffice 7.4 refuses to write its default,
    Agile, this way: "Write Error")."""
    if "2007 XML" not in filter_name and "Office Open XML" not in filter_name:
        return _property("Password", password)
    data = (NamedValue("OOXPassword", password), NamedValue("CryptoType", "Standard"))
    return _property("EncryptionData", uno.Any("[]com.sun.star.beans.NamedValue", data))


def main() -> None:
    source, target, filter_name, password, profile = sys.argv[1:6]
    pipe = f"neardup-password-{os.getpid()}"
    office = subprocess.Popen(
        ["soffice", "--headless", "--invisible", "--norestore", f"-env:UserInstallation=file://{profile}"]
        + [f"--accept=pipe,name={pipe};urp;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
        deadline = time.monotonic() + 60
        while True:
            try:
                context = resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
                break
            except Exception:  # not listening yet
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
        document = desktop.loadComponentFromURL(
            uno.systemPathToFileUrl(source), "_blank", 0, (_property("Hidden", True),)
        )
        document.storeToURL(
            uno.systemPathToFileUrl(target), (_property("FilterName", filter_name), _protection(filter_name, password))
        )
        document.close(True)
        with contextlib.suppress(Exception):  # the bridge closes as LibreOffice quits
            desktop.terminate()
        office.wait(timeout=60)
    finally:
        if office.poll() is None:
            office.kill()
            office.wait()


if __name__ == "__main__":
    main()
