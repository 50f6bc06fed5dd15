// 中英对照 / parallel text: the reader's choice holds on every page (localStorage, offline too).
(() => {
  const KEY = "jaxbook-parallel";
  const root = document.documentElement;
  const stored = () => {
    try {
      return localStorage.getItem(KEY) === "on";
    } catch (error) {
      return false;  // storage refused (a private window): the view simply starts off
    }
  };
  const show = (on) => {
    root.classList.toggle("jb-parallel-on", on);
    for (const button of document.querySelectorAll(".jb-parallel-switch")) {
      button.setAttribute("aria-pressed", String(on));
    }
  };
  show(stored());
  document.addEventListener("click", (event) => {
    if (!event.target.closest(".jb-parallel-switch")) return;
    const on = !root.classList.contains("jb-parallel-on");
    try {
      localStorage.setItem(KEY, on ? "on" : "off");
    } catch (error) {
      // not kept, but still shown on this page
    }
    show(on);
  });
})();
