/* oracle._jsonlines: the compiled twin of oracle/jsonlines.py's check "may orjson's text of this
 * line differ from the standard library's?".
 *
 * The two encoders differ only in how they print some floats: an exponent (orjson 1e16, Python
 * 1e+16) and numbers below 1e-4 (orjson 0.00001, Python 1e-05). The pure check is two regular
 * expressions over the whole line, which also fire inside strings (hex values, JSON text) and so
 * cost more than orjson itself on the bench binlog. This scanner walks the line once, skips
 * strings, and answers True for a number token that holds an 'e'/'E' or starts with 0.0000 or
 * -0.0000: the tokens the expressions look for, outside strings only (and any exponent, also the
 * 1e+16 that newer orjson releases print as Python does). Both answers lead to the same bytes
 * (when in doubt, the standard library writes the line); tests/test_jsonlines.py checks that
 * where this says no, orjson's text is the standard library's.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

static int starts_below_1e_4(const unsigned char *p, const unsigned char *end) {
    if (p < end && *p == '-') p++;
    return end - p >= 6 && memcmp(p, "0.0000", 6) == 0;
}

static PyObject *may_differ(PyObject *self, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    const unsigned char *p = view.buf, *end = p + view.len;
    int found = 0;
    while (p < end && !found) {
        unsigned char c = *p;
        if (c == '"') {  /* a string: to its closing quote, escapes skipped */
            p++;
            while (p < end) {
                const unsigned char *q = memchr(p, '"', (size_t)(end - p));
                if (q == NULL) { p = end; break; }
                const unsigned char *b = q;  /* the quote ends the string unless an odd run of backslashes precedes it */
                while (b > p && b[-1] == '\\') b--;
                p = q + 1;
                if (((q - b) & 1) == 0) break;
            }
        } else if (c == '-' || (c >= '0' && c <= '9')) {  /* a number token */
            const unsigned char *start = p;
            while (p < end && (*p == '-' || *p == '+' || *p == '.' || *p == 'e' || *p == 'E'
                               || (*p >= '0' && *p <= '9'))) {
                if (*p == 'e' || *p == 'E') found = 1;
                p++;
            }
            if (starts_below_1e_4(start, p)) found = 1;
        } else {
            p++;
        }
    }
    PyBuffer_Release(&view);
    return PyBool_FromLong(found);
}

static PyMethodDef methods[] = {
    {"may_differ", may_differ, METH_O,
     "True when a number token of this JSON text (outside strings) has an exponent or starts with "
     "0.0000: where orjson's text may differ from json.dumps'."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_jsonlines", NULL, -1, methods};

PyMODINIT_FUNC PyInit__jsonlines(void) { return PyModule_Create(&module); }
