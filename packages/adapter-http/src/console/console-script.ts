/*
 * The console's one script, served at /console/assets/console.js: it only enhances pages that work
 * without it. A relation's text box becomes a combobox (the ARIA pattern: arrows move through the
 * suggestions, Enter picks, Escape closes) whose suggestions come from /console/relations and whose
 * pick fills the hidden id beside it. An HTML text area becomes an editable area under a toolbar
 * (bold, italic, heading, lists, link, clear), its HTML written back into the text area, which the
 * form sends (the server sanitises it). Kept as plain browser JavaScript in a string: no build step.
 */

export const CONSOLE_SCRIPT = String.raw`(function () {
  "use strict";
  var counter = 0;

  function combobox(box) {
    var input = box.querySelector("input[type=text]");
    var hidden = box.querySelector("input[type=hidden]");
    if (!input || !hidden) return;
    counter += 1;
    var listId = "picker-list-" + counter;
    var list = document.createElement("ul");
    list.id = listId;
    list.className = "suggestions";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", box.getAttribute("data-label") || "");
    list.hidden = true;
    box.appendChild(list);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", listId);
    var active = -1;
    var timer = 0;
    var asked = 0;

    function options() { return list.querySelectorAll("[role=option]"); }
    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }
    function highlight(index) {
      var all = options();
      if (all.length === 0) return;
      active = (index + all.length) % all.length;
      for (var i = 0; i < all.length; i++) all[i].setAttribute("aria-selected", i === active ? "true" : "false");
      input.setAttribute("aria-activedescendant", all[active].id);
      all[active].scrollIntoView({ block: "nearest" });
    }
    function pick(option) {
      input.value = option.getAttribute("data-label");
      hidden.value = option.getAttribute("data-value");
      close();
    }
    function show(choices) {
      // Suggestions that come back while the person moves through them keep the one highlighted:
      // Enter would otherwise find none and send the form.
      var kept = active >= 0 && options()[active] ? options()[active].getAttribute("data-value") : null;
      list.textContent = "";
      choices.forEach(function (choice, i) {
        var item = document.createElement("li");
        item.id = listId + "-" + i;
        item.setAttribute("role", "option");
        item.setAttribute("aria-selected", "false");
        item.setAttribute("data-value", choice.value);
        item.setAttribute("data-label", choice.label);
        item.textContent = choice.label;
        item.addEventListener("mousedown", function (event) { event.preventDefault(); pick(item); });
        list.appendChild(item);
      });
      if (choices.length === 0) {
        var none = document.createElement("li");
        none.className = "hint";
        none.setAttribute("aria-disabled", "true");
        none.textContent = box.getAttribute("data-empty") || "";
        list.appendChild(none);
      }
      active = -1;
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      var again = choices.findIndex(function (choice) { return String(choice.value) === kept; });
      if (again >= 0) highlight(again);
    }
    function ask() {
      var words = input.value.trim();
      if (!words) { close(); return; }
      var mine = ++asked;
      fetch(box.getAttribute("data-picker") + "&q=" + encodeURIComponent(words), { credentials: "same-origin", headers: { accept: "application/json" } })
        .then(function (answer) { return answer.ok ? answer.json() : { choices: [] }; })
        .then(function (body) { if (mine === asked && document.activeElement === input) show(body.choices || []); })
        .catch(function () { /* the server settles the typed title when the form is sent */ });
    }
    input.addEventListener("input", function () {
      // A title typed by hand names no id until one is picked: the server settles it otherwise.
      hidden.value = "";
      clearTimeout(timer);
      timer = setTimeout(ask, 150);
    });
    input.addEventListener("keydown", function (event) {
      var open = !list.hidden;
      if (event.key === "ArrowDown") { event.preventDefault(); if (!open) ask(); else highlight(active + 1); }
      else if (event.key === "ArrowUp") { if (open) { event.preventDefault(); highlight(active - 1); } }
      else if (event.key === "Enter") { if (open && active >= 0) { event.preventDefault(); pick(options()[active]); } }
      else if (event.key === "Escape") { if (open) { event.preventDefault(); close(); } }
    });
    input.addEventListener("blur", function () { close(); });
  }

  function editor(area) {
    var words = JSON.parse(area.getAttribute("data-html-editor") || "{}");
    var toolbar = document.createElement("div");
    toolbar.className = "toolbar";
    toolbar.setAttribute("role", "toolbar");
    toolbar.setAttribute("aria-label", words.toolbar || "");
    toolbar.setAttribute("aria-controls", area.id + "-editor");
    var editable = document.createElement("div");
    editable.id = area.id + "-editor";
    editable.className = "editable";
    editable.contentEditable = "true";
    editable.setAttribute("role", "textbox");
    editable.setAttribute("aria-multiline", "true");
    var label = document.querySelector("label[for='" + area.id + "']");
    if (label) { label.id = label.id || area.id + "-label"; editable.setAttribute("aria-labelledby", label.id); label.htmlFor = editable.id; }
    var described = area.getAttribute("aria-describedby");
    if (described) editable.setAttribute("aria-describedby", described);
    if (area.getAttribute("aria-invalid")) editable.setAttribute("aria-invalid", area.getAttribute("aria-invalid"));
    // The text area holds what the server sanitised: the editable area starts from it, parsed inert.
    var parsed = new DOMParser().parseFromString(area.value, "text/html");
    while (parsed.body.firstChild) editable.appendChild(document.adoptNode(parsed.body.firstChild));
    function sync() { area.value = editable.innerHTML; }
    function button(text, run) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = text;
      b.addEventListener("mousedown", function (event) { event.preventDefault(); });
      b.addEventListener("click", function () { editable.focus(); run(); sync(); });
      toolbar.appendChild(b);
    }
    button(words.bold, function () { document.execCommand("bold"); });
    button(words.italic, function () { document.execCommand("italic"); });
    button(words.heading, function () { document.execCommand("formatBlock", false, "h3"); });
    button(words.paragraph, function () { document.execCommand("formatBlock", false, "p"); });
    button(words.bullets, function () { document.execCommand("insertUnorderedList"); });
    button(words.numbers, function () { document.execCommand("insertOrderedList"); });
    button(words.link, function () {
      var address = window.prompt(words.address, "https://");
      if (address) document.execCommand("createLink", false, address);
    });
    button(words.clear, function () { document.execCommand("removeFormat"); document.execCommand("unlink"); });
    editable.addEventListener("input", sync);
    area.hidden = true;
    area.parentNode.insertBefore(toolbar, area);
    area.parentNode.insertBefore(editable, area);
    if (area.form) area.form.addEventListener("submit", sync);
  }

  var boxes = document.querySelectorAll("[data-picker]");
  for (var i = 0; i < boxes.length; i++) combobox(boxes[i]);
  var areas = document.querySelectorAll("textarea[data-html-editor]");
  for (var j = 0; j < areas.length; j++) editor(areas[j]);
})();
`;
