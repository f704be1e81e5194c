/* The compiled twin of oracle/codecs/plan.py read_image_pure: one row image, decoded without
 * calling a Python reader for the common column layouts.
 *
 * The Python code is the reference. Each reader carries a spec (oracle/codecs/base.py Native,
 * attached where the reader is made); compile() turns a list of (kind, a, b, callable) specs into
 * a capsule once per columns-present bitmap, and read_image() walks an image with it, building
 * the same Python objects the readers build. On anything unusual (a value short of bytes, a
 * length past the image, a DECIMAL digit group out of range, a position that is not an int...)
 * read_image returns None and the caller reruns the Python loop, which raises the precise typed
 * error with its offset. Readers without a spec, and the converters of prefixed values (JSON),
 * are called back; their exceptions propagate unchanged.
 *
 * Every read is checked against `end`, and `end` against the buffer's length; lengths read from
 * the image are compared before use, never trusted.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The numbers of oracle/codecs/base.py Native; KINDS (exported) lets a test check them. */
enum kind {
    K_PYTHON = 0, K_NULL, K_INT, K_YEAR, K_FLOAT, K_DOUBLE, K_DECIMAL, K_DATE, K_TIME, K_DATETIME,
    K_TIMESTAMP, K_TIME2, K_DATETIME2, K_TIMESTAMP2, K_UINT_BE, K_UINT_LE, K_TEXT, K_BINARY,
    K_CONVERT, K_COUNT
};

static const char *const KIND_NAMES[K_COUNT] = {
    "PYTHON", "NULL", "INT", "YEAR", "FLOAT", "DOUBLE", "DECIMAL", "DATE", "TIME", "DATETIME",
    "TIMESTAMP", "TIME2", "DATETIME2", "TIMESTAMP2", "UINT_BE", "UINT_LE", "TEXT", "BINARY",
    "CONVERT",
};

#define MAX_GROUPS 16  /* DECIMAL(65,30): 4 integer groups, 4 fraction groups */
#define MAX_SAFE_INT 9007199254740991LL  /* values.MAX_SAFE_INT */

typedef struct {
    int kind;
    int a, b;
    PyObject *call;  /* owned: the reader (K_PYTHON) or the converter (K_CONVERT) */
    /* DECIMAL layout (decimal.py _layout): group byte widths and digit counts, in order */
    int size, ngroups, nint;
    unsigned char width[MAX_GROUPS], digits[MAX_GROUPS];
} spec_t;

typedef struct {
    Py_ssize_t n;
    spec_t specs[];
} plan_t;

static const char CAPSULE[] = "oracle.codecs._rowimage.plan";
static const int FRAC_BYTES[7] = {0, 1, 1, 2, 2, 3, 3};
static const int FRAC_SCALE[7] = {0, 10000, 10000, 100, 100, 1, 1};
static const int DIG2BYTES[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
static const uint32_t POW10[10] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                   100000000, 1000000000};

static PyObject *S_NULL_BITMAP, *S_VALUES, *S_NULL_PADDING, *S_TYPE, *S_VALUE, *S_INT, *S_FLOAT,
    *S_DOUBLE, *S_DECIMAL, *S_DATE, *S_TIME, *S_DATETIME, *S_TIMESTAMP, *S_BYTES, *S_NAN, *S_INF,
    *S_NINF;

/* ---- building values ---------------------------------------------------------------------- */

/* values.tagged; steals `value` */
static PyObject *tagged(PyObject *type, PyObject *value) {
    if (value == NULL)
        return NULL;
    PyObject *d = PyDict_New();
    if (d == NULL || PyDict_SetItem(d, S_TYPE, type) < 0 || PyDict_SetItem(d, S_VALUE, value) < 0) {
        Py_XDECREF(d);
        Py_DECREF(value);
        return NULL;
    }
    Py_DECREF(value);
    return d;
}

static PyObject *tagged_text(PyObject *type, const char *s, int n) {
    return tagged(type, PyUnicode_DecodeASCII(s, n, NULL));
}

/* values.integer */
static PyObject *integer_u(uint64_t v) {
    if (v <= (uint64_t)MAX_SAFE_INT)
        return PyLong_FromUnsignedLongLong(v);
    char t[24];
    return tagged_text(S_INT, t, snprintf(t, sizeof t, "%llu", (unsigned long long)v));
}

static PyObject *integer_s(int64_t v) {
    if (v >= -MAX_SAFE_INT && v <= MAX_SAFE_INT)
        return PyLong_FromLongLong(v);
    char t[24];
    return tagged_text(S_INT, t, snprintf(t, sizeof t, "%lld", (long long)v));
}

/* values.binary: tagged lowercase hex */
static PyObject *binary(const unsigned char *p, Py_ssize_t n) {
    static const char HEX[] = "0123456789abcdef";
    PyObject *s = PyUnicode_New(2 * n, 127);
    if (s == NULL)
        return NULL;
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(s);
    for (Py_ssize_t i = 0; i < n; i++) {
        out[2 * i] = HEX[p[i] >> 4];
        out[2 * i + 1] = HEX[p[i] & 15];
    }
    return tagged(S_BYTES, s);
}

/* values.text: the UTF-8 string, else tagged bytes */
static PyObject *text(const unsigned char *p, Py_ssize_t n) {
    PyObject *s = PyUnicode_DecodeUTF8((const char *)p, n, NULL);
    if (s != NULL || !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError))
        return s;
    PyErr_Clear();
    return binary(p, n);
}

static uint64_t be(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

static uint64_t le(const unsigned char *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* temporal._frac_text: appended at t[len]; returns the new length */
static int frac_text(char *t, int len, int cap, uint64_t usec, int fsp) {
    if (!fsp)
        return len;
    static const uint64_t DIV[7] = {1000000, 100000, 10000, 1000, 100, 10, 1};
    return len + snprintf(t + len, cap - len, ".%0*llu", fsp, (unsigned long long)(usec / DIV[fsp]));
}

/* decimal.decode_decimal; 0 (fall back) when a digit group is out of range */
static int decimal(const spec_t *sp, const unsigned char *p, PyObject **out) {
    unsigned char d[64];
    char t[160];
    memcpy(d, p, sp->size);
    int negative = !(d[0] & 0x80);
    if (negative)
        for (int i = 0; i < sp->size; i++)
            d[i] = (unsigned char)~d[i];
    d[0] &= 0x7F;
    int len = 2, off = 0;  /* t[0..1] are kept for a '-' and a '0' put before the digits */
    for (int g = 0; g < sp->ngroups; g++) {
        if (g == sp->nint)
            t[len++] = '.';  /* only when scale > 0: nint < ngroups */
        uint32_t v = (uint32_t)be(d + off, sp->width[g]);
        off += sp->width[g];
        int nd = sp->digits[g];
        if (v >= POW10[nd])
            return 0;
        for (int k = nd - 1; k >= 0; k--) {
            t[len + k] = (char)('0' + v % 10);
            v /= 10;
        }
        len += nd;
    }
    int start = 2;
    while (start < len && t[start] == '0')
        start++;
    if (start == len || t[start] == '.')
        t[--start] = '0';
    if (negative)
        t[--start] = '-';
    *out = tagged(S_DECIMAL, PyUnicode_DecodeASCII(t + start, len - start, NULL));
    return *out ? 1 : -1;
}

/* The fixed size of a kind's value, or 0 for the variable ones. */
static Py_ssize_t fixed_size(const spec_t *sp) {
    switch (sp->kind) {
    case K_INT: case K_UINT_BE: case K_UINT_LE: return sp->a;
    case K_YEAR: return 1;
    case K_FLOAT: case K_TIMESTAMP: return 4;
    case K_DOUBLE: case K_DATETIME: return 8;
    case K_DATE: case K_TIME: return 3;
    case K_DECIMAL: return sp->size;
    case K_TIMESTAMP2: return 4 + FRAC_BYTES[sp->a];
    case K_DATETIME2: return 5 + FRAC_BYTES[sp->a];
    case K_TIME2: return 3 + FRAC_BYTES[sp->a];
    default: return 0;
    }
}

static PyObject *float_value(double v, PyObject *tag) {
    if (isnan(v)) {
        Py_INCREF(S_NAN);
        return tagged(tag, S_NAN);
    }
    if (isinf(v)) {
        PyObject *s = v > 0 ? S_INF : S_NINF;
        Py_INCREF(s);
        return tagged(tag, s);
    }
    return PyFloat_FromDouble(v);
}

static PyObject *fixed_value(const spec_t *sp, const unsigned char *p) {
    char t[96];
    int n;
    switch (sp->kind) {
    case K_INT: {
        uint64_t u = le(p, sp->a);
        if (sp->b)
            return integer_u(u);
        int bits = 8 * sp->a;
        int64_t v = bits < 64 && (u >> (bits - 1)) ? (int64_t)(u - ((uint64_t)1 << bits)) : (int64_t)u;
        return integer_s(v);
    }
    case K_YEAR:
        return PyLong_FromLong(p[0] ? 1900 + p[0] : 0);
    case K_FLOAT: {
        float f;
        uint32_t u = (uint32_t)le(p, 4);
        memcpy(&f, &u, 4);
        return float_value((double)f, S_FLOAT);
    }
    case K_DOUBLE: {
        double f;
        uint64_t u = le(p, 8);
        memcpy(&f, &u, 8);
        return float_value(f, S_DOUBLE);
    }
    case K_DATE: {
        unsigned v = (unsigned)le(p, 3);
        n = snprintf(t, sizeof t, "%04u-%02u-%02u", v >> 9, (v >> 5) & 15, v & 31);
        return tagged_text(S_DATE, t, n);
    }
    case K_TIME: {
        long v = (long)le(p, 3);
        if (v & 0x800000)
            v -= 0x1000000;
        const char *sign = v < 0 ? "-" : "";
        if (v < 0)
            v = -v;
        n = snprintf(t, sizeof t, "%s%02ld:%02ld:%02ld", sign, v / 10000, v / 100 % 100, v % 100);
        return tagged_text(S_TIME, t, n);
    }
    case K_DATETIME: {
        unsigned long long v = le(p, 8), d = v / 1000000, s = v % 1000000;
        n = snprintf(t, sizeof t, "%04llu-%02llu-%02llu %02llu:%02llu:%02llu", d / 10000,
                     d / 100 % 100, d % 100, s / 10000, s / 100 % 100, s % 100);
        return tagged_text(S_DATETIME, t, n);
    }
    case K_TIMESTAMP:
        n = snprintf(t, sizeof t, "%llu", (unsigned long long)le(p, 4));
        return tagged_text(S_TIMESTAMP, t, n);
    case K_TIMESTAMP2: {
        int fsp = sp->a;
        uint64_t frac = be(p + 4, FRAC_BYTES[fsp]) * FRAC_SCALE[fsp];
        n = snprintf(t, sizeof t, "%llu", (unsigned long long)be(p, 4));
        n = frac_text(t, n, sizeof t, frac, fsp);
        return tagged_text(S_TIMESTAMP, t, n);
    }
    case K_DATETIME2: {
        int fsp = sp->a;
        /* ((int5 - 2**39) << 24) + frac: within int64 (at worst exactly -2**63) */
        int64_t packed = ((int64_t)be(p, 5) - 0x8000000000LL) * 16777216LL
                         + (int64_t)(be(p + 5, FRAC_BYTES[fsp]) * FRAC_SCALE[fsp]);
        const char *sign = packed < 0 ? "-" : "";
        uint64_t u = packed < 0 ? (uint64_t)(-(packed + 1)) + 1 : (uint64_t)packed;
        uint64_t usec = u & 0xFFFFFF, ymdhms = u >> 24, ymd = ymdhms >> 17, hms = ymdhms & 0x1FFFF;
        uint64_t ym = ymd >> 5;
        n = snprintf(t, sizeof t, "%s%04llu-%02llu-%02llu %02llu:%02llu:%02llu", sign,
                     (unsigned long long)(ym / 13), (unsigned long long)(ym % 13),
                     (unsigned long long)(ymd & 31), (unsigned long long)(hms >> 12),
                     (unsigned long long)((hms >> 6) & 63), (unsigned long long)(hms & 63));
        n = frac_text(t, n, sizeof t, usec, fsp);
        return tagged_text(S_DATETIME, t, n);
    }
    case K_TIME2: {
        int fsp = sp->a, fbytes = FRAC_BYTES[fsp];
        int64_t packed;
        if (fbytes == 3) {
            packed = (int64_t)be(p, 6) - 0x800000000000LL;
        } else {
            int64_t intpart = (int64_t)be(p, 3) - 0x800000;
            int64_t frac = (int64_t)be(p + 3, fbytes);
            if (intpart < 0 && frac) {  /* negative times: the fraction complements the next second */
                intpart += 1;
                frac -= (int64_t)1 << (8 * fbytes);
            }
            packed = intpart * 16777216LL + frac * FRAC_SCALE[fsp];
        }
        const char *sign = packed < 0 ? "-" : "";
        uint64_t u = packed < 0 ? (uint64_t)(-packed) : (uint64_t)packed;
        uint64_t hms = u >> 24;
        n = snprintf(t, sizeof t, "%s%02llu:%02llu:%02llu", sign,
                     (unsigned long long)((hms >> 12) & 0x3FF), (unsigned long long)((hms >> 6) & 63),
                     (unsigned long long)(hms & 63));
        n = frac_text(t, n, sizeof t, u & 0xFFFFFF, fsp);
        return tagged_text(S_TIME, t, n);
    }
    case K_UINT_BE:
        return integer_u(be(p, sp->a));
    case K_UINT_LE:
        return integer_u(le(p, sp->a));
    default:
        PyErr_SetString(PyExc_SystemError, "_rowimage: not a fixed-size kind");
        return NULL;
    }
}

/* A callback's (value, new_pos); 0 (fall back) when it is not one with 0 <= new_pos <= end. */
static int callback_result(PyObject *r, Py_ssize_t end, Py_ssize_t *pos, PyObject **out) {
    if (!PyTuple_CheckExact(r) || PyTuple_GET_SIZE(r) != 2 || !PyLong_CheckExact(PyTuple_GET_ITEM(r, 1))) {
        Py_DECREF(r);
        return 0;
    }
    Py_ssize_t nxt = PyLong_AsSsize_t(PyTuple_GET_ITEM(r, 1));
    if (nxt == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        Py_DECREF(r);
        return 0;
    }
    if (nxt < 0 || nxt > end) {
        Py_DECREF(r);
        return 0;
    }
    *out = PyTuple_GET_ITEM(r, 0);
    Py_INCREF(*out);
    Py_DECREF(r);
    *pos = nxt;
    return 1;
}

/* fn(buf, a, b), as the Python loop calls readers and converters */
static PyObject *call3(PyObject *fn, PyObject *bufobj, Py_ssize_t a, Py_ssize_t b) {
    PyObject *args[3] = {bufobj, PyLong_FromSsize_t(a), PyLong_FromSsize_t(b)};
    PyObject *r = args[1] && args[2] ? PyObject_Vectorcall(fn, args, 3, NULL) : NULL;
    Py_XDECREF(args[1]);
    Py_XDECREF(args[2]);
    return r;
}

/* One non-NULL value at *pos: 1 with *out set and *pos moved, 0 to fall back, -1 on an error. */
static int read_value(const spec_t *sp, PyObject *bufobj, const unsigned char *b, Py_ssize_t *pos,
                      Py_ssize_t end, PyObject **out) {
    Py_ssize_t at = *pos;
    switch (sp->kind) {
    case K_NULL:
        Py_INCREF(Py_None);
        *out = Py_None;
        return 1;
    case K_DECIMAL: {
        if (sp->size > end - at)
            return 0;
        int r = decimal(sp, b + at, out);
        if (r == 1)
            *pos = at + sp->size;
        return r;
    }
    case K_TEXT: case K_BINARY: case K_CONVERT: {
        int prefix = sp->a;
        if (prefix > end - at)
            return 0;
        uint64_t length = le(b + at, prefix);
        Py_ssize_t start = at + prefix;
        if (length > (uint64_t)(end - start))
            return 0;
        Py_ssize_t nxt = start + (Py_ssize_t)length;
        if (sp->kind == K_TEXT)
            *out = text(b + start, nxt - start);
        else if (sp->kind == K_BINARY)
            *out = binary(b + start, nxt - start);
        else
            *out = call3(sp->call, bufobj, start, nxt);
        if (*out == NULL)
            return -1;
        *pos = nxt;
        return 1;
    }
    case K_PYTHON: {
        PyObject *r = call3(sp->call, bufobj, at, end);
        if (r == NULL)
            return -1;
        return callback_result(r, end, pos, out);
    }
    default: {
        Py_ssize_t size = fixed_size(sp);
        if (size > end - at)
            return 0;
        *out = fixed_value(sp, b + at);
        if (*out == NULL)
            return -1;
        *pos = at + size;
        return 1;
    }
    }
}

/* ---- the plan capsule ---------------------------------------------------------------------- */

static void plan_free(PyObject *capsule) {
    plan_t *plan = PyCapsule_GetPointer(capsule, CAPSULE);
    if (plan == NULL)
        return;
    for (Py_ssize_t i = 0; i < plan->n; i++)
        Py_XDECREF(plan->specs[i].call);
    PyMem_Free(plan);
}

/* decimal.py _layout's groups for DECIMAL(precision, scale); -1 when invalid */
static int decimal_layout(spec_t *sp) {
    int precision = sp->a, scale = sp->b;
    if (precision < 1 || precision > 65 || scale < 0 || scale > 30 || scale > precision)
        return -1;
    int intg = precision - scale, g = 0;
    if (intg % 9)
        sp->digits[g++] = (unsigned char)(intg % 9);
    for (int i = 0; i < intg / 9; i++)
        sp->digits[g++] = 9;
    sp->nint = g;
    for (int i = 0; i < scale / 9; i++)
        sp->digits[g++] = 9;
    if (scale % 9)
        sp->digits[g++] = (unsigned char)(scale % 9);
    sp->ngroups = g;
    sp->size = 0;
    for (int i = 0; i < g; i++) {
        sp->width[i] = (unsigned char)DIG2BYTES[sp->digits[i]];
        sp->size += sp->width[i];
    }
    return 0;
}

static int check_spec(spec_t *sp) {
    switch (sp->kind) {
    case K_INT:
        return sp->a == 1 || sp->a == 2 || sp->a == 3 || sp->a == 4 || sp->a == 8 ? 0 : -1;
    case K_UINT_BE: case K_UINT_LE:
        return sp->a >= 1 && sp->a <= 8 ? 0 : -1;
    case K_TIME2: case K_DATETIME2: case K_TIMESTAMP2:
        return sp->a >= 0 && sp->a <= 6 ? 0 : -1;
    case K_TEXT: case K_BINARY:
        return sp->a >= 1 && sp->a <= 4 ? 0 : -1;
    case K_CONVERT: case K_PYTHON:
        return (sp->kind == K_PYTHON || (sp->a >= 1 && sp->a <= 4)) && sp->call && PyCallable_Check(sp->call) ? 0 : -1;
    case K_DECIMAL:
        return decimal_layout(sp);
    default:
        return sp->kind >= 0 && sp->kind < K_COUNT ? 0 : -1;
    }
}

static PyObject *compile(PyObject *self, PyObject *arg) {
    PyObject *seq = PySequence_Fast(arg, "compile() takes a sequence of (kind, a, b, callable)");
    if (seq == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    plan_t *plan = PyMem_Calloc(1, sizeof(plan_t) + (size_t)n * sizeof(spec_t));
    if (plan == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        spec_t *sp = &plan->specs[i];
        PyObject *call = NULL;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "iiiO;a spec is (kind, a, b, callable)",
                              &sp->kind, &sp->a, &sp->b, &call))
            goto fail;
        if (call != Py_None) {
            Py_INCREF(call);
            sp->call = call;
        }
        plan->n = i + 1;  /* so that plan_free releases the callables taken so far */
        if (check_spec(sp) < 0) {
            PyErr_Format(PyExc_ValueError, "spec %zd: kind %d with (%d, %d) is not one _rowimage decodes",
                         i, sp->kind, sp->a, sp->b);
            goto fail;
        }
    }
    plan->n = n;
    Py_DECREF(seq);
    PyObject *capsule = PyCapsule_New(plan, CAPSULE, plan_free);
    if (capsule == NULL) {
        for (Py_ssize_t i = 0; i < n; i++)
            Py_XDECREF(plan->specs[i].call);
        PyMem_Free(plan);
    }
    return capsule;
fail:
    for (Py_ssize_t i = 0; i < plan->n; i++)
        Py_XDECREF(plan->specs[i].call);
    PyMem_Free(plan);
    Py_DECREF(seq);
    return NULL;
}

/* ---- read_image ---------------------------------------------------------------------------- */

static PyObject *image_of(const plan_t *plan, PyObject *bufobj, const unsigned char *b,
                          Py_ssize_t pos, Py_ssize_t end) {
    Py_ssize_t n = plan->n, nb = (n + 7) >> 3;
    if (nb > end - pos)
        Py_RETURN_NONE;
    const unsigned char *bitmap = b + pos;
    pos += nb;
    PyObject *values = PyList_New(n);
    if (values == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v;
        if (bitmap[i >> 3] >> (i & 7) & 1) {
            Py_INCREF(Py_None);
            v = Py_None;
        } else {
            int r = read_value(&plan->specs[i], bufobj, b, &pos, end, &v);
            if (r <= 0) {
                Py_DECREF(values);
                if (r == 0)
                    Py_RETURN_NONE;
                return NULL;
            }
        }
        PyList_SET_ITEM(values, i, v);
    }
    PyObject *bits = PyUnicode_New(n, 127), *image = NULL, *padding = NULL, *result = NULL;
    if (bits == NULL)
        goto done;
    Py_UCS1 *out = PyUnicode_1BYTE_DATA(bits);
    for (Py_ssize_t i = 0; i < n; i++)
        out[i] = (bitmap[i >> 3] >> (i & 7) & 1) ? '1' : '0';
    image = PyDict_New();
    if (image == NULL || PyDict_SetItem(image, S_NULL_BITMAP, bits) < 0
        || PyDict_SetItem(image, S_VALUES, values) < 0)
        goto done;
    if (n & 7) {  /* the last bitmap byte's padding bits, shifted down */
        padding = PyLong_FromLong(bitmap[nb - 1] >> (n & 7));
        if (padding == NULL || PyDict_SetItem(image, S_NULL_PADDING, padding) < 0)
            goto done;
    }
    result = Py_BuildValue("(On)", image, pos);
done:
    Py_DECREF(values);
    Py_XDECREF(bits);
    Py_XDECREF(image);
    Py_XDECREF(padding);
    return result;
}

static PyObject *read_image(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "read_image(buf, pos, end, plan)");
        return NULL;
    }
    plan_t *plan = PyCapsule_GetPointer(args[3], CAPSULE);
    if (plan == NULL)
        return NULL;
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]), end = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) {  /* not ints the Python loop would take as we would: let it decide */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    PyObject *result;
    if (pos < 0 || end > view.len || pos > end) {
        Py_INCREF(Py_None);
        result = Py_None;
    } else {
        result = image_of(plan, args[0], view.buf, pos, end);
    }
    PyBuffer_Release(&view);
    return result;
}

static PyMethodDef METHODS[] = {
    {"compile", compile, METH_O,
     "compile(specs) -> plan: the (kind, a, b, callable) spec of each reader, for read_image."},
    {"read_image", (PyCFunction)(void (*)(void))read_image, METH_FASTCALL,
     "read_image(buf, pos, end, plan) -> (image, pos) as plan.read_image_pure, or None to fall back."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "oracle.codecs._rowimage",
                                    "Compiled twin of oracle/codecs/plan.py read_image_pure.", -1, METHODS};

PyMODINIT_FUNC PyInit__rowimage(void) {
    struct { PyObject **slot; const char *text; } strings[] = {
        {&S_NULL_BITMAP, "null_bitmap"}, {&S_VALUES, "values"}, {&S_NULL_PADDING, "null_padding"},
        {&S_TYPE, "type"}, {&S_VALUE, "value"}, {&S_INT, "int"}, {&S_FLOAT, "float"},
        {&S_DOUBLE, "double"}, {&S_DECIMAL, "decimal"}, {&S_DATE, "date"}, {&S_TIME, "time"},
        {&S_DATETIME, "datetime"}, {&S_TIMESTAMP, "timestamp"}, {&S_BYTES, "bytes"},
        {&S_NAN, "nan"}, {&S_INF, "inf"}, {&S_NINF, "-inf"},
    };
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        if ((*strings[i].slot = PyUnicode_InternFromString(strings[i].text)) == NULL)
            return NULL;
    PyObject *m = PyModule_Create(&MODULE);
    if (m == NULL)
        return NULL;
    PyObject *kinds = PyDict_New();
    if (kinds == NULL)
        goto fail;
    for (int k = 0; k < K_COUNT; k++) {
        PyObject *v = PyLong_FromLong(k);
        if (v == NULL || PyDict_SetItemString(kinds, KIND_NAMES[k], v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(kinds);
            goto fail;
        }
        Py_DECREF(v);
    }
    if (PyModule_AddObject(m, "KINDS", kinds) < 0) {
        Py_DECREF(kinds);
        goto fail;
    }
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
