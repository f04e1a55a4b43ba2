//! The service worker (offline use and updates) and persistent storage.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen_futures::JsFuture;

fn container() -> Option<web_sys::ServiceWorkerContainer> {
    let navigator = web_sys::window()?.navigator();
    // Absent on insecure origins and in some private modes: then there is simply no offline use.
    js_sys::Reflect::has(&navigator, &"serviceWorker".into())
        .ok()?
        .then(|| navigator.service_worker())
}

/// Registers `sw.js` (next to the page, so it works under any sub-path) and calls `on_update`
/// when a new version of the app has been installed and waits to take over.
pub fn register(on_update: impl Fn() + Clone + 'static) {
    let Some(container) = container() else { return };
    leptos::task::spawn_local(async move {
        let Ok(registration) = JsFuture::from(container.register("sw.js")).await else {
            return;
        };
        let Ok(registration) = registration.dyn_into::<web_sys::ServiceWorkerRegistration>() else {
            return;
        };
        let controlled = container.controller().is_some();
        if controlled && registration.waiting().is_some() {
            on_update();
        }
        let reg = registration.clone();
        let found = Closure::<dyn Fn()>::new(move || {
            let Some(installing) = reg.installing() else {
                return;
            };
            let watched = installing.clone();
            let on_update = on_update.clone();
            let changed = Closure::<dyn Fn()>::new(move || {
                let has_controller = container_controller();
                if watched.state() == web_sys::ServiceWorkerState::Installed && has_controller {
                    on_update();
                }
            });
            installing.set_onstatechange(Some(changed.as_ref().unchecked_ref()));
            changed.forget();
        });
        registration.set_onupdatefound(Some(found.as_ref().unchecked_ref()));
        found.forget();
    });
}

fn container_controller() -> bool {
    container().is_some_and(|c| c.controller().is_some())
}

/// Lets the waiting new version take over, then reloads the page (answers are in storage).
pub fn apply_update() {
    let Some(container) = container() else {
        reload();
        return;
    };
    let reloading = Closure::<dyn Fn()>::new(reload);
    container.set_oncontrollerchange(Some(reloading.as_ref().unchecked_ref()));
    reloading.forget();
    leptos::task::spawn_local(async move {
        let registration = JsFuture::from(container.get_registration()).await.ok();
        let waiting = registration
            .and_then(|r| r.dyn_into::<web_sys::ServiceWorkerRegistration>().ok())
            .and_then(|r| r.waiting());
        match waiting {
            Some(worker) => {
                let message = js_sys::Object::new();
                let _ = js_sys::Reflect::set(&message, &"type".into(), &"SKIP_WAITING".into());
                let _ = worker.post_message(&message);
            }
            None => reload(),
        }
    });
}

/// Reloads the page.
pub fn reload() {
    if let Some(w) = web_sys::window() {
        let _ = w.location().reload();
    }
}

/// Asks the browser to keep this site's storage under pressure. `Some(true)` when granted.
pub async fn persist() -> Option<bool> {
    let storage = web_sys::window()?.navigator().storage();
    let promise = storage.persist().ok()?;
    JsFuture::from(promise).await.ok()?.as_bool()
}

/// Whether the browser has promised to keep this site's storage (without asking).
pub async fn persisted() -> Option<bool> {
    let storage = web_sys::window()?.navigator().storage();
    let promise = storage.persisted().ok()?;
    JsFuture::from(promise).await.ok()?.as_bool()
}

/// The storage quota the browser gives this site, in bytes (`navigator.storage.estimate()`).
pub async fn quota() -> Option<f64> {
    let storage = web_sys::window()?.navigator().storage();
    let estimate = JsFuture::from(storage.estimate().ok()?).await.ok()?;
    js_sys::Reflect::get(&estimate, &"quota".into())
        .ok()?
        .as_f64()
}

/// Puts the study file and its media into the offline cache now (the worker caches what is
/// fetched once it controls the page, but on the first visit the study is fetched before it
/// does). Quietly does nothing where the Cache API is missing.
pub fn keep_for_offline(urls: Vec<String>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if container().is_none() {
        return;
    }
    let Ok(caches) = window.caches() else { return };
    leptos::task::spawn_local(async move {
        let Ok(cache) = JsFuture::from(caches.open("juror-runtime")).await else {
            return;
        };
        let Ok(cache) = cache.dyn_into::<web_sys::Cache>() else {
            return;
        };
        // Only the site's own files: another site's address would be refused by the CSP anyway.
        for url in urls
            .into_iter()
            .filter(|u| !u.contains("://") && !u.starts_with("//"))
        {
            // One by one: a missing image must not keep the study itself out of the cache.
            let _ = JsFuture::from(cache.add_with_str(&url)).await;
        }
    });
}
