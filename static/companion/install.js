// The app installs where the browser allows a service worker: over HTTPS, or on this machine
// (localhost). The phones that reach `make run` over plain HTTP on the local network go without;
// the hand form keeps an offline save by itself.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register(document.currentScript.dataset.serviceWorker);
}
