// A small stand-in for web-platform-tests' testharness.js, written for the
// WebCryptoAPI files under pkg-tests/wpt/: a classic script (no imports) that
// defines, on the global object, the harness functions those files call, and
// `__wpt`, which reports every subtest's name, status and message.
//
// It runs in a browser page (as a <script>) and in Node (vm.runInThisContext,
// one child process per file: lib/wpt-child.mjs). The semantics kept from
// WPT's harness: test() runs at once; promise_test()s run one after another,
// in the order they were declared, each after the previous one settled;
// setup({ explicit_done: true }) makes the file's end wait for done(); a
// subtest that throws or whose promise rejects fails with the error's text.
(function () {
  'use strict';
  var global = typeof globalThis === 'object' ? globalThis : self;
  var TIMEOUT_MS = 60000; // a "long" WPT timeout, per subtest

  var results = []; // { name, status: 'PASS' | 'FAIL' | 'TIMEOUT', message }
  var harnessErrors = []; // errors outside any subtest (a file that throws while it loads)
  var chain = Promise.resolve(); // the promise tests, one after another
  var pending = 0; // promise tests declared and not finished
  var explicitDone = false;
  var doneCalled = false;
  var completionCallbacks = [];

  function AssertionError(message) {
    this.message = message;
  }
  AssertionError.prototype = Object.create(Error.prototype);
  AssertionError.prototype.name = 'AssertionError';

  function describe(value) {
    if (typeof value === 'string') return JSON.stringify(value);
    if (typeof value === 'bigint') return value + 'n';
    if (typeof value === 'function') return 'function "' + value.name + '"';
    if (value === null || typeof value !== 'object') return Object.is(value, -0) ? '-0' : String(value);
    if (Array.isArray(value)) return '[' + value.map(describe).join(', ') + ']';
    try {
      return Object.prototype.toString.call(value);
    } catch (_e) {
      return 'object';
    }
  }

  function errorText(e) {
    if (e instanceof AssertionError) return e.message;
    if (e && typeof e === 'object' && 'name' in e) return e.name + ': ' + e.message;
    return 'threw ' + describe(e);
  }

  function record(name, status, message) {
    results.push({ name: String(name), status: status, message: message });
  }

  function fail(description, message) {
    throw new AssertionError((description ? description + ': ' : '') + message);
  }

  // SameValue, as WPT's assert_equals compares (NaN equals NaN, +0 is not -0).
  function same(a, b) {
    return Object.is(a, b);
  }

  function TestObject(name) {
    this.name = name;
    this.cleanups = [];
  }
  TestObject.prototype.add_cleanup = function (fn) {
    this.cleanups.push(fn);
  };
  TestObject.prototype.step_func = function (fn) {
    var t = this;
    return function () {
      return fn.apply(t, arguments);
    };
  };
  TestObject.prototype.unreached_func = function (description) {
    return function () {
      fail(description, 'reached unreachable code');
    };
  };
  function cleanup(t) {
    for (var i = 0; i < t.cleanups.length; i++) {
      try {
        t.cleanups[i]();
      } catch (_e) {}
    }
  }

  global.test = function test(fn, name) {
    var t = new TestObject(name);
    try {
      fn.call(t, t);
      record(name, 'PASS', '');
    } catch (e) {
      record(name, 'FAIL', errorText(e));
    }
    cleanup(t);
  };

  global.promise_test = function promise_test(fn, name) {
    pending++;
    chain = chain.then(function () {
      var t = new TestObject(name);
      var timer;
      var timeout = new Promise(function (resolve) {
        timer = setTimeout(function () {
          resolve('timeout');
        }, TIMEOUT_MS);
      });
      var run = new Promise(function (resolve) {
        resolve(fn.call(t, t));
      }).then(
        function () {
          return 'pass';
        },
        function (e) {
          return e;
        },
      );
      return Promise.race([run, timeout]).then(function (outcome) {
        clearTimeout(timer);
        if (outcome === 'pass') record(name, 'PASS', '');
        else if (outcome === 'timeout') record(name, 'TIMEOUT', 'no result after ' + TIMEOUT_MS / 1000 + ' s');
        else record(name, 'FAIL', errorText(outcome));
        cleanup(t);
        pending--;
      });
    });
  };

  global.setup = function setup(funcOrProperties, maybeProperties) {
    var properties = typeof funcOrProperties === 'function' ? maybeProperties || {} : funcOrProperties || {};
    if (properties.explicit_done) explicitDone = true;
    if (typeof funcOrProperties === 'function') {
      try {
        funcOrProperties();
      } catch (e) {
        harnessErrors.push('setup: ' + errorText(e));
      }
    }
  };

  var doneWaiters = [];
  global.done = function done() {
    doneCalled = true;
    while (doneWaiters.length) doneWaiters.shift()();
  };

  global.add_completion_callback = function add_completion_callback(fn) {
    completionCallbacks.push(fn);
  };

  global.assert_true = function assert_true(actual, description) {
    if (actual !== true) fail(description, 'expected true got ' + describe(actual));
  };
  global.assert_false = function assert_false(actual, description) {
    if (actual !== false) fail(description, 'expected false got ' + describe(actual));
  };
  global.assert_equals = function assert_equals(actual, expected, description) {
    if (typeof actual !== typeof expected)
      fail(description, 'expected (' + typeof expected + ') ' + describe(expected) + ' but got (' + typeof actual + ') ' + describe(actual));
    if (!same(actual, expected)) fail(description, 'expected ' + describe(expected) + ' but got ' + describe(actual));
  };
  global.assert_not_equals = function assert_not_equals(actual, expected, description) {
    if (same(actual, expected)) fail(description, 'got disallowed value ' + describe(actual));
  };
  global.assert_array_equals = function assert_array_equals(actual, expected, description) {
    if (actual === null || typeof actual !== 'object' || !('length' in actual)) fail(description, 'value is ' + describe(actual) + ', expected array');
    if (actual.length !== expected.length)
      fail(
        description,
        'lengths differ, expected array ' + describe(expected) + ' length ' + expected.length + ', got ' + describe(actual) + ' length ' + actual.length,
      );
    for (var i = 0; i < actual.length; i++) {
      if (Object.hasOwn(actual, i) !== Object.hasOwn(expected, i))
        fail(description, 'expected property ' + i + ' to be ' + (Object.hasOwn(expected, i) ? 'present' : 'missing'));
      if (!same(actual[i], expected[i])) fail(description, 'expected property ' + i + ' to be ' + describe(expected[i]) + ' but got ' + describe(actual[i]));
    }
  };
  global.assert_unreached = function assert_unreached(description) {
    fail(description, 'reached unreachable code');
  };
  // The promise rejects with a DOMException of this realm named `type`.
  global.promise_rejects_dom = function promise_rejects_dom(t, type, promise, description) {
    return Promise.resolve(promise).then(
      function () {
        fail(description, 'expected a rejection with a DOMException ' + type + ', but the promise fulfilled');
      },
      function (e) {
        if (!(e instanceof global.DOMException)) fail(description, 'expected a DOMException ' + type + ', got ' + errorText(e));
        if (e.name !== type) fail(description, 'expected a DOMException ' + type + ', got ' + errorText(e));
      },
    );
  };

  if (typeof global.addEventListener === 'function') {
    global.addEventListener('error', function (event) {
      harnessErrors.push('uncaught: ' + (event.error ? errorText(event.error) : event.message));
    });
    global.addEventListener('unhandledrejection', function (event) {
      harnessErrors.push('unhandled rejection: ' + errorText(event.reason));
    });
  }

  global.__wpt = {
    /** For the runner: an error thrown while a file's scripts load. */
    harnessError: function (e) {
      harnessErrors.push('while loading: ' + errorText(e));
    },
    /**
     * Resolves, once the file's subtests have all finished (and done() was
     * called where setup asked for it), to { results, harnessErrors }.
     */
    complete: function () {
      function settle() {
        var seen = chain;
        return seen.then(function () {
          if (explicitDone && !doneCalled) {
            return new Promise(function (resolve) {
              doneWaiters.push(resolve);
            }).then(settle);
          }
          // Promise tests declared while the last ones ran: wait for them too.
          if (seen !== chain || pending > 0) return settle();
        });
      }
      return settle().then(function () {
        for (var i = 0; i < completionCallbacks.length; i++) {
          try {
            completionCallbacks[i](results.slice(), { status: 0 });
          } catch (e) {
            harnessErrors.push('completion callback: ' + errorText(e));
          }
        }
        return { results: results.slice(), harnessErrors: harnessErrors.slice() };
      });
    },
  };
})();
