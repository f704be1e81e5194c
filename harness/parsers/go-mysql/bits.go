package main

// bitString: a bitmap as "0"/"1" per column, as the oracle prints null_bitmap.
func bitString(bitmap []byte, n int) string {
	out := make([]byte, n)
	for i := range n {
		out[i] = '0'
		if i/8 < len(bitmap) && bitmap[i/8]&(1<<(uint(i)%8)) != 0 {
			out[i] = '1'
		}
	}
	return string(out)
}
